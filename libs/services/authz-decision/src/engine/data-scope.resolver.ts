import { CallerKind, DataScope, DataScopeKind, DecisionRequest, permissionCode, ResourceDescriptor, TrustedCaller, ValidDecisionRequest } from '@lp/contracts';
import { Clock, systemClock } from './clock';
import { ScopeEvidence } from './evaluator';
import { DataScopeSetting, PolicyFactsReader, RevisionSnapshot } from './policy-facts';
import { rbacFinding } from './rbac.evaluator';
import { REBAC_RESOURCE_TYPES, relationsAllowing, relationScopeEvidence } from './rebac.evaluator';

/**
 * The scope of a permit whose source says nothing about rows (AppScope, ABAC, Feature, or a
 * temporary grant without a setting). An application's scope is granted for the whole tenant its
 * token was issued for, and an own-rows filter by a client id would match nothing. A person gets
 * the narrowest scope that still lets them work with what they own.
 */
export const DEFAULT_DATA_SCOPE_SETTING: Readonly<Record<CallerKind, 'tenant' | 'own'>> = {
  application: 'tenant',
  user: 'own',
  delegated: 'own',
};

/**
 * Widest first. Several sources may back one permit (two roles, a role and a relation); the
 * widest scope wins because each source alone would have permitted the request with its scope.
 */
export const DATA_SCOPE_PRECEDENCE: readonly DataScopeKind[] = ['tenant', 'office', 'own', 'instances', 'none'];

export interface DataScopeInput {
  caller: TrustedCaller;
  resource: ResourceDescriptor;
  permitted: boolean;
  /** Evidence of the sources that allowed (see `ScopeEvidence`). */
  evidence: readonly ScopeEvidence[];
}

export type DataScopeRule = 'not-permitted' | 'default' | 'widest' | 'instance-over-excluding-scope';

export interface DataScopeResolution {
  dataScope: DataScope;
  rule: DataScopeRule;
  /** One candidate per scope kind offered by the evidence, widest first. */
  candidates: DataScope[];
}

function fromSetting(setting: DataScopeSetting | undefined, caller: TrustedCaller, officeIds: readonly string[]): DataScope {
  const tenantId = caller.tenantId;
  switch (setting ?? DEFAULT_DATA_SCOPE_SETTING[caller.kind]) {
    case 'tenant':
      return { kind: 'tenant', tenantId };
    // An office setting without offices reaches no rows; saying so keeps a narrower source's rows.
    case 'office':
      return officeIds.length > 0 ? { kind: 'office', tenantId, officeIds: [...officeIds] } : { kind: 'none', tenantId };
    case 'own':
      return { kind: 'own', tenantId, subject: caller.subject };
    default:
      // 'none' and any unknown stored value: reaching no rows is the fail-closed reading.
      return { kind: 'none', tenantId };
  }
}

function candidateOf(evidence: ScopeEvidence, caller: TrustedCaller): DataScope {
  if (evidence.source === 'relation') {
    return { kind: 'instances', tenantId: caller.tenantId, resourceType: evidence.resourceType, resourceIds: [evidence.resourceId] };
  }
  return fromSetting(evidence.setting, caller, evidence.officeIds);
}

/** One candidate per kind: office ids and instance ids are unions, sorted so order of evidence never shows. */
function combine(candidates: DataScope[]): DataScope[] {
  const byKind = new Map<DataScopeKind, DataScope>();
  for (const candidate of candidates) {
    const seen = byKind.get(candidate.kind);
    if (!seen) {
      byKind.set(candidate.kind, candidate);
    } else if (seen.kind === 'office' && candidate.kind === 'office') {
      byKind.set('office', { ...seen, officeIds: [...new Set([...seen.officeIds, ...candidate.officeIds])] });
    } else if (seen.kind === 'instances' && candidate.kind === 'instances') {
      byKind.set('instances', { ...seen, resourceIds: [...new Set([...seen.resourceIds, ...candidate.resourceIds])] });
    }
  }
  return DATA_SCOPE_PRECEDENCE.flatMap((kind): DataScope[] => {
    const scope = byKind.get(kind);
    if (!scope) return [];
    if (scope.kind === 'office') return [{ ...scope, officeIds: [...scope.officeIds].sort() }];
    if (scope.kind === 'instances') return [{ ...scope, resourceIds: [...scope.resourceIds].sort() }];
    return [scope];
  });
}

/** Whether the resource's own facts show that `scope` does not reach it. Unknown facts prove nothing. */
function excludesResource(scope: DataScope, resource: ResourceDescriptor, caller: TrustedCaller): boolean {
  if (scope.kind === 'own') return resource.owner !== undefined && resource.owner !== caller.subject;
  if (scope.kind === 'office') return resource.officeId !== undefined && !scope.officeIds.includes(resource.officeId);
  return false;
}

/**
 * DataScope of a decision, always carrying the caller's tenant:
 * 1. not permitted → `none`;
 * 2. no evidence (the permit came from AppScope, ABAC or Feature) → `DEFAULT_DATA_SCOPE_SETTING`;
 * 3. otherwise the widest candidate by `DATA_SCOPE_PRECEDENCE` (tenant > office > own > instances
 *    > none), where roles and temporary grants offer their setting and ReBAC relations offer the
 *    instance; except that when the winning own/office scope provably excludes the requested
 *    instance (its owner or office facts say so) and a relation covers that instance, the
 *    `instances` scope wins: the scope is applied to the query for that very instance, and the
 *    wider-ranked scope would hide the row the relation permitted.
 * Pure, so a decision-cache hit recomputes it from fresh facts (`DataScopeResolver`).
 */
export function resolveDataScopeWithTrace({ caller, resource, permitted, evidence }: DataScopeInput): DataScopeResolution {
  const tenantId = caller.tenantId;
  if (!permitted) return { dataScope: { kind: 'none', tenantId }, rule: 'not-permitted', candidates: [] };
  const candidates = combine(evidence.map((item) => candidateOf(item, caller)));
  const [widest] = candidates;
  if (widest === undefined) {
    return { dataScope: fromSetting(DEFAULT_DATA_SCOPE_SETTING[caller.kind], caller, []), rule: 'default', candidates };
  }
  const instances = candidates.find((c) => c.kind === 'instances');
  if (instances && excludesResource(widest, resource, caller)) {
    return { dataScope: instances, rule: 'instance-over-excluding-scope', candidates };
  }
  return { dataScope: widest, rule: 'widest', candidates };
}

export function resolveDataScope(input: DataScopeInput): DataScope {
  return resolveDataScopeWithTrace(input).dataScope;
}

/**
 * Recomputes the DataScope of a decision from current facts, without evaluating policy again:
 * what a decision-cache hit needs (spec §1 cache rule 3). It re-reads the row-scope facts (the
 * subject's roles and grants, the instance relations) through the port, which the service backs
 * with the DataScope and ReBAC caches. A store failure rejects: the caller must then fail closed.
 */
export class DataScopeResolver {
  constructor(
    private readonly facts: PolicyFactsReader,
    private readonly clock: Clock = systemClock,
  ) {}

  async resolve(valid: ValidDecisionRequest, permitted: boolean, revisions?: RevisionSnapshot): Promise<DataScope> {
    if (!permitted) return resolveDataScope({ caller: valid.caller, resource: valid.resource, permitted, evidence: [] });
    const now = this.clock();
    const [roleEvidence, relationEvidence] = await Promise.all([this.roleEvidence(valid, now, revisions), this.relationEvidence(valid, revisions)]);
    return resolveDataScope({ caller: valid.caller, resource: valid.resource, permitted, evidence: [...roleEvidence, ...relationEvidence] });
  }

  private async roleEvidence({ caller, resource, action }: DecisionRequest, now: Date, revisions?: RevisionSnapshot): Promise<readonly ScopeEvidence[]> {
    if (caller.kind === 'application') return [];
    const permissions = await this.facts.permissionsOfSubject(caller.tenantId, caller.subject, revisions);
    const finding = rbacFinding(caller, permissionCode(resource.module, resource.resourceType, action), permissions, now);
    return finding.allowed ? finding.scope : [];
  }

  private async relationEvidence({ caller, resource, action }: DecisionRequest, revisions?: RevisionSnapshot): Promise<readonly ScopeEvidence[]> {
    const { resourceType, resourceId } = resource;
    // A delegated caller's scope is its grant's (see DecisionEngine): a relation cannot widen it.
    if (caller.kind !== 'user' || resourceId === undefined || !REBAC_RESOURCE_TYPES.includes(resourceType)) return [];
    const relations = await this.facts.relations(caller.tenantId, caller.subject, resourceType, resourceId, revisions);
    return relationScopeEvidence(relationsAllowing(relations, caller.subject, resourceType, resourceId, action));
  }
}
