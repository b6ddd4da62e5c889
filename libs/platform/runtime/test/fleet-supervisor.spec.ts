import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { FleetSupervisor, SupervisedChild } from '../src/fleet-supervisor';

/** A child process that exits when told to (or on kill), for the supervisor's logic without real processes. */
class FakeChild extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: string[] = [];
  kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    this.signals.push(signal);
    this.exit(null, signal);
    return true;
  };
  exit(code: number | null, signal: NodeJS.Signals | null = null) {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

function harness(names = ['a', 'b'] as const) {
  const children = Object.fromEntries(names.map((n) => [n, [] as FakeChild[]])) as Record<(typeof names)[number], FakeChild[]>;
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const lines: string[] = [];
  let clock = 0;
  const supervisor = new FleetSupervisor(
    names.map((name) => ({
      name,
      spawn: () => {
        const child = new FakeChild();
        children[name].push(child);
        return child as unknown as SupervisedChild;
      },
    })),
    {
      initialDelayMs: 100,
      maxDelayMs: 1_000,
      healthyAfterMs: 10_000,
      log: (line) => lines.push(line),
      setTimer: (fn, ms) => {
        timers.push({ fn, ms });
        return {};
      },
      now: () => clock,
    },
  );
  const runTimers = () => timers.splice(0).forEach((t) => t.fn());
  return { supervisor, children, timers, lines, runTimers, advance: (ms: number) => (clock += ms) };
}

describe('FleetSupervisor', () => {
  it('restarts a crashed service with a doubling backoff, says so, and leaves the others running', () => {
    const h = harness();
    h.supervisor.start();
    h.children.a[0]!.exit(1);
    expect(h.timers.map((t) => t.ms)).toEqual([100]);
    expect(h.lines.at(-1)).toMatch(/^a exited \(code 1\).*restarting in 100 ms \(crash 1 in a row\)/);
    expect(h.children.b[0]!.signals).toEqual([]);
    h.runTimers();
    expect(h.children.a).toHaveLength(2);
    h.children.a[1]!.exit(1); // the second crash in a row
    expect(h.timers.map((t) => t.ms)).toEqual([200]);
    h.runTimers();
    for (let i = 0; i < 5; i++) {
      h.children.a.at(-1)!.exit(1);
      h.runTimers();
    }
    expect(h.lines.at(-1)).toMatch(/restarting in 1000 ms/); // capped
  });

  it('restarts a service that exited cleanly (code 0, as after SIGTERM) at once, without counting it as a crash', () => {
    const h = harness();
    h.supervisor.start();
    for (let i = 0; i < 4; i++) {
      h.children.a.at(-1)!.exit(0);
      expect(h.children.a).toHaveLength(i + 2); // started again synchronously, no timer
    }
    expect(h.timers).toEqual([]);
    expect(h.lines.at(-1)).toMatch(/^a exited cleanly \(code 0\) after \d+ ms; restarting now$/);
    expect(h.lines.join('\n')).not.toMatch(/crash/);
    expect(h.children.b[0]!.signals).toEqual([]);
  });

  it('backs off crashes only: a clean exit between crashes starts the count over, a death by signal is a crash', () => {
    const h = harness();
    h.supervisor.start();
    h.children.a[0]!.exit(1);
    h.runTimers();
    h.children.a[1]!.exit(1);
    expect(h.timers.map((t) => t.ms)).toEqual([200]);
    h.runTimers();
    h.children.a[2]!.exit(0);
    expect(h.children.a).toHaveLength(4);
    h.children.a[3]!.exit(null, 'SIGKILL');
    expect(h.timers.map((t) => t.ms)).toEqual([100]);
    expect(h.lines.at(-1)).toMatch(/^a exited \(signal SIGKILL\).*restarting in 100 ms \(crash 1 in a row\)/);
  });

  it('starts the backoff over after a service stayed up long enough', () => {
    const h = harness();
    h.supervisor.start();
    h.children.a[0]!.exit(1);
    h.runTimers();
    h.children.a[1]!.exit(1);
    expect(h.timers.at(-1)!.ms).toBe(200);
    h.runTimers();
    h.advance(20_000);
    h.children.a[2]!.exit(1);
    expect(h.timers.at(-1)!.ms).toBe(100);
  });

  it('restarts one service by name at once, without backoff', () => {
    const h = harness();
    h.supervisor.start();
    expect(h.supervisor.restart('b')).toBe(true);
    expect(h.children.b[0]!.signals).toEqual(['SIGTERM']);
    expect(h.children.b).toHaveLength(2);
    expect(h.timers).toEqual([]);
    expect(h.supervisor.restart('nope')).toBe(false);
  });

  it('stops everything on stop() and restarts nothing afterwards', async () => {
    const h = harness();
    h.supervisor.start();
    await h.supervisor.stop();
    expect(h.children.a[0]!.signals).toEqual(['SIGTERM']);
    expect(h.children.b[0]!.signals).toEqual(['SIGTERM']);
    h.runTimers(); // the SIGKILL timers find nothing running
    expect(h.children.a).toHaveLength(1);
    expect(h.supervisor.restart('a')).toBe(false);
  });

  it('restarts a real process that exits on its own', async () => {
    let spawned = 0;
    const lines: string[] = [];
    const supervisor = new FleetSupervisor([{ name: 'flaky', spawn: () => (spawned++, spawn(process.execPath, ['-e', 'process.exit(3)'])) }], {
      initialDelayMs: 10,
      log: (line) => lines.push(line),
    });
    supervisor.start();
    const deadline = Date.now() + 10_000;
    while (spawned < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await supervisor.stop();
    expect(spawned).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(/^flaky exited \(code 3\)/);
  });
});
