import type { ChildProcess } from 'node:child_process';

/** What the supervisor needs of a child process (a real `ChildProcess`, or a fake in tests). */
export type SupervisedChild = Pick<ChildProcess, 'kill' | 'once' | 'exitCode' | 'signalCode'>;

export interface SupervisedService {
  name: string;
  /** Starts one instance; called again for every restart. */
  spawn(): SupervisedChild;
}

export interface FleetSupervisorOptions {
  /** First restart delay after a crash (any exit but code 0); doubles per crash in a row up to `maxDelayMs`. Default 500 ms / 30 s. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that stayed up this long before it exited counts as healthy: its next crash starts the backoff over. Default 60 s. */
  healthyAfterMs?: number;
  /** How long `stop()` waits for children after SIGTERM before SIGKILL. Default 10 s. */
  stopTimeoutMs?: number;
  log?: (line: string) => void;
  /** Timers and clock, injectable for tests. */
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void };
  now?: () => number;
}

interface Slot {
  service: SupervisedService;
  child?: SupervisedChild;
  startedAt: number;
  crashesInARow: number;
  /** Set while `restart(name)` waits for the old child to exit. */
  restarting: boolean;
  pendingRestart: boolean;
}

/**
 * Keeps the local fleet (`npm run start:fleet`) up as Kubernetes would: a service that crashes is
 * started again after an exponential backoff (and says so), one that exits cleanly (code 0, a
 * stop someone asked for) is started again at once, and the others keep running; only
 * `stop()` (Ctrl-C / SIGTERM) stops everything; `restart(name)` restarts one service at once.
 */
export class FleetSupervisor {
  private readonly slots: Slot[];
  private stopping = false;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly healthyAfterMs: number;
  private readonly stopTimeoutMs: number;
  private readonly log: (line: string) => void;
  private readonly setTimer: NonNullable<FleetSupervisorOptions['setTimer']>;
  private readonly now: () => number;

  constructor(services: SupervisedService[], options: FleetSupervisorOptions = {}) {
    this.slots = services.map((service) => ({ service, startedAt: 0, crashesInARow: 0, restarting: false, pendingRestart: false }));
    this.initialDelayMs = options.initialDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.healthyAfterMs = options.healthyAfterMs ?? 60_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
    this.log = options.log ?? ((line) => process.stdout.write(`[fleet] ${line}\n`));
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.now = options.now ?? Date.now;
  }

  start(): void {
    for (const slot of this.slots) this.launch(slot);
  }

  /** Service names, in start order. */
  get names(): string[] {
    return this.slots.map((s) => s.service.name);
  }

  /** Restarts one service now (SIGTERM, then start again when it has exited). */
  restart(name: string): boolean {
    const slot = this.slots.find((s) => s.service.name === name);
    if (!slot || this.stopping) return false;
    this.log(`${name}: restarting on request`);
    if (!slot.child || !running(slot.child)) {
      this.launch(slot);
      return true;
    }
    slot.restarting = true;
    slot.child.kill('SIGTERM');
    return true;
  }

  /** Stops every service (SIGTERM, SIGKILL after the timeout); no restart happens from then on. */
  async stop(): Promise<void> {
    this.stopping = true;
    const exits = this.slots
      .filter((slot) => slot.child && running(slot.child))
      .map(
        (slot) =>
          new Promise<void>((resolve) => {
            const child = slot.child as SupervisedChild;
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            this.setTimer(() => {
              if (running(child)) child.kill('SIGKILL');
            }, this.stopTimeoutMs).unref?.();
          }),
      );
    await Promise.all(exits);
  }

  private launch(slot: Slot): void {
    if (this.stopping) return;
    slot.pendingRestart = false;
    const child = slot.service.spawn();
    slot.child = child;
    slot.startedAt = this.now();
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => this.exited(slot, child, code, signal));
  }

  private exited(slot: Slot, child: SupervisedChild, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.child !== child || this.stopping) return;
    const name = slot.service.name;
    if (slot.restarting) {
      slot.restarting = false;
      slot.crashesInARow = 0;
      this.launch(slot);
      return;
    }
    const upFor = this.now() - slot.startedAt;
    // Code 0 is a stop someone asked for (SIGTERM or Ctrl-C to that one process, then a drain):
    // nothing is wrong with the service, so it comes back at once and its crash count starts over.
    // Anything else (a non-zero code, a death by SIGKILL or the OOM killer) is a crash.
    if (code === 0) {
      slot.crashesInARow = 0;
      this.log(`${name} exited cleanly (code 0) after ${upFor} ms; restarting now`);
      this.launch(slot);
      return;
    }
    slot.crashesInARow = upFor >= this.healthyAfterMs ? 1 : slot.crashesInARow + 1;
    const delay = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** (slot.crashesInARow - 1));
    this.log(
      `${name} exited (${signal ? `signal ${signal}` : `code ${code}`}) after ${upFor} ms; restarting in ${delay} ms (crash ${slot.crashesInARow} in a row)`,
    );
    slot.pendingRestart = true;
    this.setTimer(() => {
      if (slot.pendingRestart && slot.child === child) this.launch(slot);
    }, delay);
  }
}

function running(child: SupervisedChild): boolean {
  return child.exitCode === null && child.signalCode === null;
}
