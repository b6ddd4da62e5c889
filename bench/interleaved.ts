import { readFileSync } from 'node:fs';
import { LatencySummary, summarize } from './latency-stats';
import { cpuByProcessGroup, cpuOfPid, cpuPerCall, ProcessGroup } from './process-cpu';

/** Busy time of the whole machine (every CPU, every process: broker, databases, this one) in ms, from /proc/stat; undefined off Linux. */
export function machineBusyMs(): number | undefined {
  try {
    const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
    const ticks = cpu.trim().split(/\s+/).slice(1).map(Number);
    const idle = ticks[3]! + (ticks[4] ?? 0); // idle + iowait
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0); // without guest time, already in user
    return ((total - idle) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

export interface Timed extends LatencySummary {
  /** CPU of this process per timed call. */
  cpuMsPerCall: number;
  /** Busy time of the whole machine per timed call (includes anything else running). */
  machineMsPerCall?: number;
  /** CPU per timed call of each process group (node processes, RabbitMQ, PostgreSQL, Redis). */
  byProcess?: Map<ProcessGroup, number>;
  /** CPU per timed call of each named process (`pids` of `interleaved`). */
  byPid?: Map<string, number>;
  /** p50 of each slice, in round order: slice k of every call ran back to back with the others'. */
  sliceP50s: number[];
}

export const INTERLEAVE_ROUNDS = 4;

interface Accumulator {
  samples: number[];
  sliceP50s: number[];
  wallMs: number;
  cpuMs: number;
  machineMs: number | undefined;
  byProcess: Map<ProcessGroup, number> | undefined;
  byPid: Map<string, number>;
}

/**
 * Several calls timed in alternating slices (a, b, b, a, a, b, ...) after `warmup` untimed calls of
 * each, so a change of machine load during the measurement hits all of them alike. Samples are
 * pooled per call over the slices, as `measure()` times them; each slice's p50 is kept as well, so
 * a ratio can be taken slice by slice (`sliceRatios`). `pids` names other processes whose
 * CPU per call is reported too (servers running in processes of their own).
 */
export async function interleaved<const Calls extends ReadonlyArray<() => Promise<unknown>>>(
  calls: Calls,
  total: number,
  concurrency: number,
  options: { warmup: number; pids?: Record<string, number>; rounds?: number },
): Promise<{ -readonly [K in keyof Calls]: Timed }> {
  const rounds = options.rounds ?? INTERLEAVE_ROUNDS;
  for (const call of calls) for (let i = 0; i < options.warmup; i++) await call();
  const pids = Object.entries(options.pids ?? {});
  const pooled: Accumulator[] = calls.map(() => ({ samples: [], sliceP50s: [], wallMs: 0, cpuMs: 0, machineMs: 0, byProcess: new Map(), byPid: new Map() }));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? calls.map((_, i) => i) : calls.map((_, i) => calls.length - 1 - i);
    const slice = Math.floor(total / rounds);
    for (const i of order) {
      const acc = pooled[i]!;
      const call = calls[i]!;
      const cpuBefore = process.cpuUsage();
      const machineBefore = machineBusyMs();
      const processesBefore = cpuByProcessGroup();
      const pidsBefore = pids.map(([, pid]) => cpuOfPid(pid));
      let issued = 0;
      const sliceStart = acc.samples.length;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (issued < slice) {
            issued += 1;
            const t0 = performance.now();
            await call();
            acc.samples.push(performance.now() - t0);
          }
        }),
      );
      acc.wallMs += performance.now() - started;
      acc.sliceP50s.push(summarize(acc.samples.slice(sliceStart), 1).p50);
      const used = process.cpuUsage(cpuBefore);
      acc.cpuMs += (used.user + used.system) / 1000;
      const machineAfter = machineBusyMs();
      acc.machineMs =
        acc.machineMs !== undefined && machineBefore !== undefined && machineAfter !== undefined ? acc.machineMs + machineAfter - machineBefore : undefined;
      const processesAfter = cpuByProcessGroup();
      if (acc.byProcess && processesBefore && processesAfter) {
        for (const [group, ms] of cpuPerCall(processesBefore, processesAfter, 1)) acc.byProcess.set(group, (acc.byProcess.get(group) ?? 0) + ms);
      } else {
        acc.byProcess = undefined;
      }
      pids.forEach(([name, pid], k) => acc.byPid.set(name, (acc.byPid.get(name) ?? 0) + Math.max(0, (cpuOfPid(pid) ?? 0) - (pidsBefore[k] ?? 0))));
    }
  }
  const timed: Timed[] = pooled.map((acc) => ({
    ...summarize(acc.samples, acc.wallMs),
    cpuMsPerCall: acc.cpuMs / acc.samples.length,
    sliceP50s: acc.sliceP50s,
    ...(acc.machineMs !== undefined ? { machineMsPerCall: acc.machineMs / acc.samples.length } : {}),
    ...(acc.byProcess ? { byProcess: new Map([...acc.byProcess].map(([g, ms]) => [g, ms / acc.samples.length])) } : {}),
    ...(pids.length > 0 ? { byPid: new Map([...acc.byPid].map(([name, ms]) => [name, ms / acc.samples.length])) } : {}),
  }));
  return timed as { -readonly [K in keyof Calls]: Timed }; // one Timed per call, in the calls' order
}

export const cpuCell = (t: Timed) => `${t.cpuMsPerCall.toFixed(3)} / ${t.machineMsPerCall?.toFixed(3) ?? '-'}`;

export const processCell = (byProcess: Map<ProcessGroup, number>) =>
  (['node', 'rabbitmq', 'postgres', 'redis'] as const).map((g) => (byProcess.get(g) ?? 0).toFixed(3)).join(' / ');

/** The ratio of two calls' p50 in each round (they ran back to back), with its median and range. */
export function sliceRatios(numerator: Timed, denominator: Timed): { ratios: number[]; median: number; min: number; max: number } {
  const ratios = numerator.sliceP50s.map((p50, i) => p50 / denominator.sliceP50s[i]!);
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { ratios, median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}
