import { Session } from 'node:inspector';
import { formatTable } from './latency-stats';

/** A V8 CPU profile of this process, summed by where the code lives. */
export interface CpuProfileSummary {
  calls: number;
  wallMs: number;
  /**
   * Sampled time not idle, per call. Wall-clock samples: a thread descheduled by other processes,
   * or waiting in a syscall, counts as busy in whatever it was doing.
   */
  cpuMsPerCall: number;
  /**
   * Self time per call by group (package, lib folder, GC, ...); `(idle)` excluded. Time in a
   * native builtin (socket writes, JSON, crypto) or in node's own modules is charged to the group
   * of the nearest package or application caller, so `ioredis` includes the socket writes it made.
   */
  byGroup: Map<string, number>;
  /** Self time per call of the heaviest functions, as `group: function`. */
  byFunction: Map<string, number>;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** Where a frame's code lives: an npm package, a folder of `libs/`, the bench, node itself, or a V8 pseudo-frame. */
export function groupOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / builtins)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  const lib = /\/libs\/((?:services|platform)\/[^/]+|[^/]+)\//.exec(url);
  if (lib) return `libs/${lib[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  if (/\/bench\//.test(url)) return 'bench (client loop)';
  return url;
}

/** A running sampling profile of this process; `stop(calls)` ends it and sums it per call. */
export interface RunningCpuProfile {
  stop(calls: number): Promise<CpuProfileSummary>;
}

export async function startCpuProfile(): Promise<RunningCpuProfile> {
  const session = new Session();
  session.connect();
  const disconnect = async () => {
    await post(session, 'Profiler.disable').catch(() => undefined);
    session.disconnect();
  };
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
    await post(session, 'Profiler.start');
  } catch (error) {
    await disconnect();
    throw error;
  }
  const started = performance.now();
  return {
    stop: async (calls) => {
      try {
        const wallMs = performance.now() - started;
        const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
        return summarizeProfile(profile, calls, wallMs);
      } finally {
        await disconnect();
      }
    },
  };
}

/** Runs `work` (which makes `calls` calls) under the sampling profiler. */
export async function cpuProfile(calls: number, work: () => Promise<unknown>): Promise<CpuProfileSummary> {
  const running = await startCpuProfile();
  await work();
  return running.stop(calls);
}

function summarizeProfile(profile: Profile, calls: number, wallMs: number): CpuProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const isLibraryCode = (f: ProfileNode['callFrame']) => f.url !== '' && !f.url.startsWith('node:');
  /**
   * The frame a sample is charged to: itself when it is package or application code (or a V8
   * pseudo-frame); for a native builtin or node's own JavaScript (streams, sockets), the nearest
   * caller that is package or application code, so a socket write counts for the client that wrote.
   */
  const owner = (id: number): ProfileNode['callFrame'] => {
    const own = nodes.get(id)!.callFrame;
    if (isLibraryCode(own) || own.functionName.startsWith('(')) return own;
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) {
      const frame = nodes.get(up)!.callFrame;
      if (isLibraryCode(frame)) return frame;
    }
    return own;
  };
  /** Stopping the profiler (building the profile) is sampled too, under the inspector's `post`: not the calls' time. */
  const isProfilerOwn = (id: number): boolean => {
    for (let up: number | undefined = id; up !== undefined; up = parents.get(up)) if (nodes.get(up)!.callFrame.url === 'node:inspector') return true;
    return false;
  };
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === '(idle)' || isProfilerOwn(id)) return;
    busyUs += us;
    const charged = owner(id);
    const group = groupOf(charged.url, charged.functionName);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us / 1000 / calls);
    const name = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    const fn = charged === frame ? `${group}: ${name(frame)}` : `${group}: ${name(charged)} → ${name(frame)}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us / 1000 / calls);
  });
  return { calls, wallMs, cpuMsPerCall: busyUs / 1000 / calls, byGroup, byFunction };
}

/** Side-by-side table of CPU ms per call by group, heaviest (in the first profile) first. */
export function formatProfile(profiles: Array<{ label: string; profile: CpuProfileSummary }>, top = 14): string {
  const [first] = profiles;
  if (!first) throw new Error('formatProfile needs at least one profile');
  const groups = [...new Set(profiles.flatMap((p) => [...p.profile.byGroup.keys()]))].sort(
    (a, b) => (first.profile.byGroup.get(b) ?? 0) - (first.profile.byGroup.get(a) ?? 0),
  );
  const shown = groups.slice(0, top);
  const rest = groups.slice(top);
  const row = (name: string, value: (p: CpuProfileSummary) => number) =>
    Object.fromEntries([['where (self time)', name], ...profiles.map((p) => [`${p.label} ms/call`, value(p.profile).toFixed(4)])]);
  const rows = [
    ...shown.map((g) => row(g, (p) => p.byGroup.get(g) ?? 0)),
    ...(rest.length > 0 ? [row(`(${rest.length} others)`, (p) => rest.reduce((s, g) => s + (p.byGroup.get(g) ?? 0), 0))] : []),
    row('total busy (non-idle samples)', (p) => p.cpuMsPerCall),
    row('wall time / call (64 in flight)', (p) => p.wallMs / p.calls),
  ];
  const heaviest = [...first.profile.byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_PROFILE_TOP ?? 12));
  return [
    formatTable(rows),
    '',
    `heaviest functions of ${first.label} (self ms/call):`,
    formatTable(heaviest.map(([fn, ms]) => ({ function: fn, 'ms/call': ms.toFixed(4) }))),
  ].join('\n');
}
