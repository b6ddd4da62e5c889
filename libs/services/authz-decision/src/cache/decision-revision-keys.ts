import { LRUCache } from 'lru-cache';
import type { TrustedCaller } from '@lp/contracts';

/**
 * Tenant and subject ids go into counter names as segments. `:` and `%` are escaped so names are
 * injective: tenant `a:b` + subject `c` and tenant `a` + subject `b:c` never share a counter, and
 * `rev:scope:{tenant}` never equals `rev:scope:{tenant}:{subject}` of another tenant. Ids without
 * either character (all real ones) appear unchanged.
 */
function segment(id: string): string {
  return id.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * Names of the revision counters (ARCHITECTURE.md, Caches). A cache entry's key holds the values
 * of the counters it depends on; a bump moves later reads to new keys (exact, O(1), no scans).
 *
 * The decision cache depends on `tenantPolicy`, `subject`, `featureGlobal`, `featureTenant` and
 * `rebac` (a relation behind a ReBAC Allow must not keep permitting from the cache). DataScope and
 * ReBAC have counters of their own (spec §1 Cache behavior 4): bumping a policy or subject counter
 * never changes them, so clearing the permission cache refreshes neither.
 *
 * A tenant whose id is literally `global` shares `rev:feature:global` with the platform default:
 * that only ever causes extra misses (its feature changes invalidate every tenant), never a stale hit.
 */
export const DecisionRevisionKeys = {
  /** Roles, role permissions and ABAC rules of a tenant. */
  tenantPolicy: (tenantId: string) => `rev:policy:${segment(tenantId)}`,
  /** One subject's role bindings, temporary grants and delegations. */
  subject: (tenantId: string, subject: string) => `rev:subject:${segment(tenantId)}:${segment(subject)}`,
  /** Global feature defaults: every tenant's decisions depend on it. */
  featureGlobal: 'rev:feature:global',
  /** One tenant's feature overrides. */
  featureTenant: (tenantId: string) => `rev:feature:${segment(tenantId)}`,
  /** DataScope cache, tenant-wide part (role scope settings, relations). */
  dataScopeTenant: (tenantId: string) => `rev:scope:${segment(tenantId)}`,
  /** DataScope cache, one subject's part (its bindings and grants). */
  dataScopeSubject: (tenantId: string, subject: string) => `rev:scope:${segment(tenantId)}:${segment(subject)}`,
  /** ReBAC relation cache of a tenant; also part of the decision key. */
  rebac: (tenantId: string) => `rev:rebac:${segment(tenantId)}`,
  /**
   * ReBAC relation cache, one subject's part: a share with a role applies to every holder of the
   * role, so assigning or revoking a role changes the subject's relations without any relation row
   * changing. Not in the decision key (the subject revision, bumped by the same events, is).
   */
  rebacSubject: (tenantId: string, subject: string) => `rev:rebac:${segment(tenantId)}:${segment(subject)}`,
} as const;

/**
 * The counters a decision depends on, as numbers. The four of `DecisionRevisions` (contracts) plus
 * the ReBAC revision, so the object can be put in `DecisionResult.revisions` as it is.
 */
export interface DecisionCacheRevisions {
  tenantPolicy: number;
  subject: number;
  featureGlobal: number;
  featureTenant: number;
  rebac: number;
}

/**
 * What a decision entry is stamped with: the revisions and the epoch of the counters they were
 * read under (see `RevisionStamp`). The numbers alone repeat after a Redis restart; the pair never.
 */
export interface DecisionCacheStamp {
  readonly epoch: string;
  readonly revisions: DecisionCacheRevisions;
}

/** Order of `decisionRevisionNames` and of the values in the cache key. */
const DECISION_REVISION_FIELDS = ['tenantPolicy', 'subject', 'featureGlobal', 'featureTenant', 'rebac'] as const;

/** Every counter name one caller's decisions read, by the cache that reads them. */
export interface CallerRevisionNames {
  /** In the order `decisionRevisionsOf` expects. */
  readonly decision: readonly string[];
  readonly dataScope: readonly string[];
  readonly rebac: readonly string[];
  /** All of them, each once: what a decision reads in its one round trip. */
  readonly all: readonly string[];
}

/**
 * The names are the same for every decision of a caller, and building them (escaping, joining) is
 * a measurable part of a cache hit: they are made once per tenant and subject and kept, frozen.
 */
const callerNames = new LRUCache<string, CallerRevisionNames>({ max: 10_000 });

export function callerRevisionNames(tenantId: string, subject: string): CallerRevisionNames {
  const key = `${tenantId}\u0000${subject}`;
  let names = callerNames.get(key);
  if (!names) {
    const decision = Object.freeze([
      DecisionRevisionKeys.tenantPolicy(tenantId),
      DecisionRevisionKeys.subject(tenantId, subject),
      DecisionRevisionKeys.featureGlobal,
      DecisionRevisionKeys.featureTenant(tenantId),
      DecisionRevisionKeys.rebac(tenantId),
    ]);
    const dataScope = Object.freeze([DecisionRevisionKeys.dataScopeTenant(tenantId), DecisionRevisionKeys.dataScopeSubject(tenantId, subject)]);
    const rebac = Object.freeze([DecisionRevisionKeys.rebac(tenantId), DecisionRevisionKeys.rebacSubject(tenantId, subject)]);
    names = Object.freeze({ decision, dataScope, rebac, all: Object.freeze([...new Set([...decision, ...dataScope, ...rebac])]) });
    callerNames.set(key, names);
  }
  return names;
}

/** The names a decision for `caller` depends on, in the order `decisionRevisionsOf` expects. */
export function decisionRevisionNames(caller: Pick<TrustedCaller, 'tenantId' | 'subject'>): readonly string[] {
  return callerRevisionNames(caller.tenantId, caller.subject).decision;
}

export function decisionRevisionsOf(values: readonly number[]): DecisionCacheRevisions {
  if (values.length !== DECISION_REVISION_FIELDS.length) {
    throw new Error(`Expected ${DECISION_REVISION_FIELDS.length} revision values, got ${values.length}`);
  }
  // The length is checked above, so all five are present.
  const [tenantPolicy, subject, featureGlobal, featureTenant, rebac] = values as readonly [number, number, number, number, number];
  return { tenantPolicy, subject, featureGlobal, featureTenant, rebac };
}

/** The values in key order. */
export function decisionRevisionValues(revisions: DecisionCacheRevisions): number[] {
  return DECISION_REVISION_FIELDS.map((field) => revisions[field]);
}

/** The counters of a DataScope cache entry for `subject` (for the DataScope cache's key). */
export function dataScopeRevisionNames(tenantId: string, subject: string): readonly string[] {
  return callerRevisionNames(tenantId, subject).dataScope;
}

/** The counters of a ReBAC relation cache entry for `subject` (for the relation cache's key). */
export function rebacRevisionNames(tenantId: string, subject: string): readonly string[] {
  return callerRevisionNames(tenantId, subject).rebac;
}
