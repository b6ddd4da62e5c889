import { RevisionCounters, RevisionStamp } from '@lp/platform/cache';
import type { RevisionSnapshot } from '../engine';

/**
 * Reads every revision counter a decision needs (decision, DataScope, ReBAC) in one call, so a cache
 * hit costs one round trip for counters instead of one per cache, and every cache of one decision
 * sees the same revisions. Undefined when the counters cannot be read: each cache then finds out for
 * itself and falls back to the facts.
 */
export async function readRevisionSnapshot(counters: RevisionCounters, names: readonly string[]): Promise<RevisionSnapshot | undefined> {
  let stamp: RevisionStamp;
  try {
    stamp = await counters.read([...names]);
  } catch {
    return undefined;
  }
  return { epoch: stamp.epoch, values: new Map(names.map((name, i) => [name, stamp.values[i] as number])) };
}

/** The counters' stamp (epoch and values) from the snapshot when it holds them all, else a fresh read. */
export function revisionsFrom(counters: RevisionCounters, names: readonly string[], snapshot: RevisionSnapshot | undefined): Promise<RevisionStamp> {
  const held = snapshot?.values;
  if (snapshot && held && names.every((name) => held.has(name))) {
    return Promise.resolve({ epoch: snapshot.epoch, values: names.map((name) => held.get(name) as number) });
  }
  return counters.read([...names]);
}
