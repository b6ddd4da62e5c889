import { RevisionCounters } from '@lp/platform/cache';
import type { RevisionSnapshot } from '../engine';

/**
 * Reads every revision counter a decision needs (decision, DataScope, ReBAC) in one call, so a cache
 * hit costs one round trip for counters instead of one per cache, and every cache of one decision
 * sees the same revisions. Undefined when the counters cannot be read: each cache then finds out for
 * itself and falls back to the facts.
 */
export async function readRevisionSnapshot(counters: RevisionCounters, names: readonly string[]): Promise<RevisionSnapshot | undefined> {
  let values: number[];
  try {
    values = await counters.read([...names]);
  } catch {
    return undefined;
  }
  return new Map(names.map((name, i) => [name, values[i] as number]));
}

/** The counters' values from the snapshot when it holds them all, else a fresh read. */
export function revisionsFrom(counters: RevisionCounters, names: readonly string[], snapshot: RevisionSnapshot | undefined): Promise<number[]> {
  if (snapshot && names.every((name) => snapshot.has(name))) return Promise.resolve(names.map((name) => snapshot.get(name) as number));
  return counters.read([...names]);
}
