import {
  AuthorizationAction,
  CALLER_KINDS,
  CallerKind,
  DecisionOutcome,
  permissionCode,
  PolicyOverlay,
  ReplayFlip,
  SimulatedCaller,
  SimulatedDecision,
  SimulatedResource,
  SimulateReplayResult,
  SimulationLimits,
  TrustedCaller,
  ValidationError,
  validateDecisionRequest,
  ValidDecisionRequest,
} from '@lp/contracts';
import { DataSource } from 'typeorm';
import { DecisionAuditRecord } from '../audit';
import { AbacCondition, AbacRule, AbacVerdict } from '../engine/abac-rule';
import { Clock, systemClock } from '../engine/clock';
import { DecisionEngine } from '../engine/decision-engine';
import { FeatureEnabledVerdict } from '../engine/feature.evaluator';
import { PolicyFactsReader, RoleBinding } from '../engine/policy-facts';
import { MemoizedPolicyFacts, OverlayPolicyFacts, ResolvedOverlay } from './overlay-policy-facts';

/** What the simulator needs to know about the stored catalog to resolve an overlay. */
export interface SimulationCatalog {
  /** The tenant's roles among `names`, with their data scope and stored codes. */
  roles(tenantId: string, names: string[]): Promise<RoleBinding[]>;
  /** The codes among `codes` that are in the permission catalog. */
  knownPermissions(codes: string[]): Promise<string[]>;
  /** The codes among `codes` that are defined features. */
  definedFeatures(codes: string[]): Promise<string[]>;
  /** The ids among `ids` of the tenant's ABAC rules. */
  abacRuleIds(tenantId: string, ids: string[]): Promise<string[]>;
}

/** Audited resource facts kept on a flip, in the descriptor's shape. */
function resourceOf(row: DecisionAuditRecord): SimulatedResource {
  return {
    module: row.module,
    resourceType: row.resourceType,
    ...(row.resourceId !== null ? { resourceId: row.resourceId } : {}),
    ...(row.resourceFacts ?? {}),
  };
}

/**
 * The caller of an audited decision, rebuilt. The audit keeps kind, subject, client and actor but
 * not the token's scopes, grant id or claims. An application's scopes matter only to AppScope, whose
 * verdict an overlay cannot change: the caller is given the request's code as its one scope exactly
 * when AppScope allowed the recorded decision. A delegated caller is rebuilt without its grant id,
 * so any active grant from the subject to the actor counts.
 */
function callerOf(row: DecisionAuditRecord, code: string): TrustedCaller {
  const appScopeAllowed = (row.evaluations ?? []).some((e) => e.evaluator === 'AppScope' && e.verdict === 'Allow');
  return {
    kind: row.callerKind,
    subject: row.subject,
    tenantId: row.tenantId,
    ...(row.clientId !== null ? { clientId: row.clientId } : {}),
    ...(row.actor !== null ? { actor: row.actor } : {}),
    scopes: row.callerKind === 'application' && appScopeAllowed ? [code] : [],
    claimsDigest: 'simulation-replay',
  };
}

function instant(value: unknown, field: string, problems: Record<string, string[]>): Date | undefined {
  if (value === undefined) return undefined;
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) problems[field] = ['must be an ISO date-time'];
  return date;
}

/** The code the audited request derived; empty when it derives none (the request is then skipped). */
function permissionCodeOf(row: DecisionAuditRecord): string {
  try {
    return permissionCode(row.module, row.resourceType, row.action as AuthorizationAction);
  } catch {
    return '';
  }
}

const unique = <T>(values: T[]) => [...new Set(values)];

/** Which of a simulated caller's fields each kind may state (the others are refused, not ignored). */
const CALLER_FIELDS: Record<CallerKind, ReadonlyArray<keyof SimulatedCaller>> = {
  user: [],
  application: ['clientId', 'scopes'],
  delegated: ['clientId', 'actor', 'grantId'],
};

/**
 * The caller a simulation decides for, as its token would make it (`TrustedCaller`): an application's
 * client id defaults to its subject, a delegated caller needs its actor. A field the kind does not
 * have is a problem, so a question is never answered for another caller than the one asked about.
 */
function simulatedCaller(tenantId: string, subject: string, who: SimulatedCaller, problems: Record<string, string[]>): TrustedCaller {
  const kind = who.callerKind ?? 'user';
  if (!CALLER_KINDS.includes(kind)) {
    problems['callerKind'] = [`must be one of ${CALLER_KINDS.join(', ')}`];
    return { kind: 'user', subject, tenantId, scopes: [], claimsDigest: 'simulation' };
  }
  for (const field of ['clientId', 'scopes', 'actor', 'grantId'] as const) {
    if (who[field] !== undefined && !CALLER_FIELDS[kind].includes(field)) problems[field] = [`is not a ${kind} caller's`];
  }
  if (kind === 'delegated' && (who.actor ?? '').trim() === '') problems['actor'] = ['is required for a delegated caller'];
  return {
    kind,
    subject,
    tenantId,
    scopes: kind === 'application' ? [...(who.scopes ?? [])] : [],
    ...(kind === 'application' ? { clientId: who.clientId ?? subject } : who.clientId !== undefined ? { clientId: who.clientId } : {}),
    ...(kind === 'delegated' && who.actor !== undefined ? { actor: who.actor } : {}),
    ...(kind === 'delegated' && who.grantId !== undefined ? { grantId: who.grantId } : {}),
    claimsDigest: 'simulation',
  };
}

/**
 * What-if decisions (RPC `authz.simulate`, `authz.simulate-replay`): the decision engine over the
 * stored facts with an overlay applied, with no cache and no audit: nothing is written anywhere.
 * The tenant is always the asking caller's.
 */
export interface PolicySimulatorOptions {
  clock?: Clock;
  /** `AUTHZ_FEATURE_ENABLED_VERDICT` of the service, so a simulation answers what a decision would. */
  featureEnabledVerdict?: FeatureEnabledVerdict;
}

export class PolicySimulator {
  private readonly clock: Clock;
  private readonly featureEnabledVerdict: FeatureEnabledVerdict | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly facts: () => PolicyFactsReader,
    private readonly catalog: SimulationCatalog,
    options: PolicySimulatorOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.featureEnabledVerdict = options.featureEnabledVerdict;
  }

  /**
   * One decision for `subject` of the caller's tenant, with the overlay applied: a user unless `who`
   * names another caller kind (`SimulatedCaller`).
   */
  async simulate(tenantId: string, subject: unknown, request: unknown, overlay: PolicyOverlay, who: SimulatedCaller = {}): Promise<SimulatedDecision> {
    const problems: Record<string, string[]> = {};
    if (typeof subject !== 'string' || subject.trim() === '' || subject.length > 255)
      problems['subject'] = ['must be a non-empty string of at most 255 characters'];
    const r = (typeof request === 'object' && request !== null ? request : {}) as { resource?: Record<string, unknown>; action?: unknown };
    if (typeof request !== 'object' || request === null) problems['request'] = ['must be an object with resource and action'];
    const caller = simulatedCaller(tenantId, subject as string, who, problems);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
    const resolved = await this.resolve(tenantId, overlay);
    const engine = new DecisionEngine({
      facts: new OverlayPolicyFacts(this.facts(), resolved),
      clock: this.clock,
      featureEnabledVerdict: this.featureEnabledVerdict,
    });
    const { outcome, permitted, evaluations, obligations, dataScope, failure } = await engine.decide(
      validateDecisionRequest({
        caller,
        resource: r.resource,
        action: r.action,
      }),
    );
    return { outcome, permitted, evaluations, obligations, dataScope, ...(failure ? { failure } : {}) };
  }

  /**
   * Re-decides the newest `sample` audited decisions of the tenant in `[from, to)` twice at one
   * instant, on current facts without and with the overlay, and lists those whose outcome differs.
   */
  async replay(tenantId: string, payload: { overlay: PolicyOverlay; sample?: unknown; from?: unknown; to?: unknown }): Promise<SimulateReplayResult> {
    const problems: Record<string, string[]> = {};
    const sample = payload.sample ?? SimulationLimits.defaultReplaySample;
    if (!Number.isInteger(sample) || (sample as number) < 1 || (sample as number) > SimulationLimits.maxReplaySample) {
      problems['sample'] = [`must be an integer from 1 to ${SimulationLimits.maxReplaySample}`];
    }
    const from = instant(payload.from, 'from', problems);
    const to = instant(payload.to, 'to', problems);
    if (from && to && !problems['from'] && !problems['to'] && from > to) problems['to'] = ['must not be before from'];
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
    const resolved = await this.resolve(tenantId, payload.overlay);

    const query = this.dataSource.getRepository(DecisionAuditRecord).createQueryBuilder('a').where('a.tenantId = :tenantId', { tenantId });
    if (from) query.andWhere('a.decidedAt >= :from', { from });
    if (to) query.andWhere('a.decidedAt < :to', { to });
    const rows = await query
      .orderBy('a.decidedAt', 'DESC')
      .addOrderBy('a.decisionId', 'DESC')
      .take(sample as number)
      .getMany();

    const now = this.clock();
    const facts = new MemoizedPolicyFacts(this.facts());
    const featureEnabledVerdict = this.featureEnabledVerdict;
    const before = new DecisionEngine({ facts, clock: () => now, featureEnabledVerdict });
    const after = new DecisionEngine({ facts: new OverlayPolicyFacts(facts, resolved), clock: () => now, featureEnabledVerdict });
    const flipped: ReplayFlip[] = [];
    let skipped = 0;
    for (const row of rows) {
      let request: ValidDecisionRequest;
      let outcomes: [DecisionOutcome, DecisionOutcome];
      try {
        request = validateDecisionRequest({ caller: callerOf(row, permissionCodeOf(row)), resource: resourceOf(row), action: row.action });
        const [b, a] = await Promise.all([before.decide(request), after.decide(request)]);
        outcomes = [b.outcome, a.outcome];
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        skipped++;
        continue;
      }
      if (outcomes[0] === outcomes[1]) continue;
      flipped.push({
        decisionId: row.decisionId,
        decidedAt: row.decidedAt.toISOString(),
        callerKind: row.callerKind,
        subject: row.subject,
        ...(row.actor !== null ? { actor: row.actor } : {}),
        ...(row.clientId !== null ? { clientId: row.clientId } : {}),
        action: row.action,
        resource: resourceOf(row),
        recorded: row.outcome,
        before: outcomes[0],
        after: outcomes[1],
      });
    }
    return { replayed: rows.length - skipped, skipped, flipped };
  }

  /**
   * Checks the overlay's references against the stores (unknown role, code, feature or rule → 400,
   * so a typo is not mistaken for "no effect") and loads the definitions the overlay needs.
   */
  async resolve(tenantId: string, overlay: PolicyOverlay): Promise<ResolvedOverlay> {
    const problems: Record<string, string[]> = {};
    const roleNames = unique(
      [overlay.addRoleBindings, overlay.removeRoleBindings, overlay.addRolePermissions, overlay.removeRolePermissions].flatMap((l) =>
        (l ?? []).map((e) => e.roleName),
      ),
    );
    const codes = unique([...(overlay.addRolePermissions ?? []), ...(overlay.removeRolePermissions ?? [])].map((p) => p.permissionCode));
    const featureCodes = unique((overlay.features ?? []).map((f) => f.code));
    const ruleIds = unique(overlay.abacRules?.remove ?? []);
    const [roles, knownCodes, features, rules] = await Promise.all([
      roleNames.length ? this.catalog.roles(tenantId, roleNames) : [],
      codes.length ? this.catalog.knownPermissions(codes) : [],
      featureCodes.length ? this.catalog.definedFeatures(featureCodes) : [],
      ruleIds.length ? this.catalog.abacRuleIds(tenantId, ruleIds) : [],
    ]);
    const missing = (wanted: string[], found: string[]) => wanted.filter((w) => !found.includes(w));
    const unknownRoles = missing(
      roleNames,
      roles.map((r) => r.roleName),
    );
    if (unknownRoles.length) problems['overlay.roleName'] = [`unknown role(s) in this tenant: ${unknownRoles.join(', ')}`];
    const unknownCodes = missing(codes, knownCodes);
    if (unknownCodes.length) problems['overlay.permissionCode'] = [`not in the permission catalog: ${unknownCodes.join(', ')}`];
    const unknownFeatures = missing(featureCodes, features);
    if (unknownFeatures.length) problems['overlay.features'] = [`undefined feature(s): ${unknownFeatures.join(', ')}`];
    const unknownRules = missing(ruleIds, rules);
    if (unknownRules.length) problems['overlay.abacRules.remove'] = [`unknown ABAC rule(s) in this tenant: ${unknownRules.join(', ')}`];
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);

    const addedAbacRules = (overlay.abacRules?.add ?? []).map((rule, i): AbacRule => ({
      id: rule.id ?? `simulated-${i + 1}`,
      ...(rule.name ? { name: rule.name } : {}),
      priority: rule.priority,
      verdict: rule.verdict as AbacVerdict,
      conditions: rule.conditions as AbacCondition[],
      ...(rule.actions?.length ? { actions: rule.actions } : {}),
      ...(rule.modules?.length ? { modules: rule.modules } : {}),
      ...(rule.resourceTypes?.length ? { resourceTypes: rule.resourceTypes } : {}),
      ...(rule.obligations?.length ? { obligations: rule.obligations } : {}),
    }));
    return { tenantId, overlay, roles: new Map(roles.map((r) => [r.roleName, r])), addedAbacRules };
  }
}
