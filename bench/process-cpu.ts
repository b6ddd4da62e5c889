import { readdirSync, readFileSync } from 'node:fs';

/** The processes a benchmark's calls keep busy, by name (everything else is `other`). */
export type ProcessGroup = 'node' | 'rabbitmq' | 'postgres' | 'redis' | 'other';
export const PROCESS_GROUPS: readonly ProcessGroup[] = ['node', 'rabbitmq', 'postgres', 'redis', 'other'];

function groupOf(command: string): ProcessGroup {
  if (command.startsWith('node')) return 'node';
  if (command.startsWith('beam') || command.startsWith('erl') || command === 'epmd' || command.startsWith('inet_gethost')) return 'rabbitmq';
  if (command.startsWith('postgres') || command.startsWith('postmaster')) return 'postgres';
  if (command.startsWith('redis')) return 'redis';
  return 'other';
}

/**
 * CPU time (user + system, ms) used so far by every process of the machine, summed per group, from
 * /proc/<pid>/stat; undefined off Linux. A process that ended between two readings drops out of
 * the second: compare readings taken around a steady workload, not across process starts.
 */
export function cpuByProcessGroup(): Map<ProcessGroup, number> | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const totals = new Map<ProcessGroup, number>(PROCESS_GROUPS.map((g) => [g, 0]));
  for (const pid of pids) {
    const stat = processStat(Number(pid));
    if (!stat) continue; // ended meanwhile
    const group = groupOf(stat.command);
    totals.set(group, (totals.get(group) ?? 0) + stat.cpuMs);
  }
  return totals;
}

/** Per-group CPU ms between two readings, divided by `calls`. */
export function cpuPerCall(before: Map<ProcessGroup, number>, after: Map<ProcessGroup, number>, calls: number): Map<ProcessGroup, number> {
  return new Map(PROCESS_GROUPS.map((g) => [g, Math.max(0, (after.get(g) ?? 0) - (before.get(g) ?? 0)) / calls]));
}

/** CPU time (user + system, ms) used so far by one process; undefined once it is gone or off Linux. */
export function cpuOfPid(pid: number): number | undefined {
  return processStat(pid)?.cpuMs;
}

/** Command name and CPU ms so far of one process, from /proc/<pid>/stat; undefined when unreadable. */
function processStat(pid: number): { command: string; cpuMs: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ...`: comm may hold spaces and parentheses, so split after the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, // utime, stime in USER_HZ (100)
  };
}
