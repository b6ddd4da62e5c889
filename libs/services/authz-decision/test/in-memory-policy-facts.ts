import { AuthorizationAction, PermissionCode } from '@lp/contracts';
import { AbacCondition, AbacField, AbacOperator, AbacRule, AbacValue, AbacVerdict } from '../src/engine/abac-rule';
import {
  DataScopeSetting,
  DelegatedGrant,
  POLICY_STORE_NAMES,
  PolicyFactsReader,
  PolicyStoreName,
  PolicyStoreUnavailableError,
  ResourceRelation,
  RoleBinding,
  SubjectPermissions,
  TemporaryGrant,
} from '../src/engine/policy-facts';

/** JSON form of policy facts: instants as ISO strings, ABAC enumerations as integers or names. */
export interface PolicyFactsSnapshot {
  /** Global feature defaults by feature code. */
  featureDefaults?: Record<string, boolean>;
  tenants?: Record<string, TenantFactsSnapshot>;
}

export interface TenantFactsSnapshot {
  /** Role name → data-scope setting and permission codes. */
  roles?: Record<string, { dataScope: DataScopeSetting; permissions: PermissionCode[] }>;
  /** Subject → bound role names. */
  bindings?: Record<string, string[]>;
  /** Subject → office ids. */
  offices?: Record<string, string[]>;
  /** Holder subject → temporary grants. */
  temporaryGrants?: Record<string, TemporaryGrantSnapshot[]>;
  /** Delegator subject → delegated grants. */
  delegatedGrants?: Record<string, DelegatedGrantSnapshot[]>;
  abacRules?: AbacRuleSnapshot[];
  relations?: ResourceRelation[];
  /** Feature code → tenant override. */
  featureOverrides?: Record<string, boolean>;
  /** The tenant is suspended: every decision of its callers is denied. */
  suspended?: boolean;
}

export type TemporaryGrantSnapshot = Omit<TemporaryGrant, 'expiresAt'> & { expiresAt: string };
export type DelegatedGrantSnapshot = Omit<DelegatedGrant, 'expiresAt'> & { expiresAt: string };

export interface AbacConditionSnapshot {
  field: number | keyof typeof AbacField;
  operator: number | keyof typeof AbacOperator;
  value?: AbacValue;
}

export type AbacRuleSnapshot = Omit<AbacRule, 'verdict' | 'conditions'> & {
  verdict: number | keyof typeof AbacVerdict;
  conditions: AbacConditionSnapshot[];
};

/** One change to the facts; the conformance corpus's `sequence` steps use the same shape. */
export type PolicyFactsChange =
  | { op: 'defineRole'; tenantId: string; roleName: string; dataScope: DataScopeSetting; permissions: PermissionCode[] }
  | { op: 'deleteRole'; tenantId: string; roleName: string }
  | { op: 'bindRole'; tenantId: string; subject: string; roleName: string }
  | { op: 'unbindRole'; tenantId: string; subject: string; roleName: string }
  | { op: 'setOffices'; tenantId: string; subject: string; officeIds: string[] }
  | { op: 'grantTemporary'; tenantId: string; subject: string; grant: TemporaryGrantSnapshot }
  | { op: 'revokeTemporary'; tenantId: string; subject: string; grantId: string }
  | { op: 'delegate'; tenantId: string; delegator: string; grant: DelegatedGrantSnapshot }
  | { op: 'revokeDelegation'; tenantId: string; delegator: string; grantId: string }
  | { op: 'putAbacRule'; tenantId: string; rule: AbacRuleSnapshot }
  | { op: 'deleteAbacRule'; tenantId: string; ruleId: string }
  | { op: 'addRelation'; tenantId: string; relation: ResourceRelation }
  | { op: 'removeRelation'; tenantId: string; relation: ResourceRelation }
  | { op: 'setFeatureDefault'; featureCode: string; enabled: boolean | null }
  | { op: 'setFeatureOverride'; tenantId: string; featureCode: string; enabled: boolean | null }
  | { op: 'failStore'; store: PolicyStoreName }
  | { op: 'restoreStore'; store: PolicyStoreName };

interface TenantFacts {
  roles: Map<string, { dataScope: DataScopeSetting; permissions: readonly PermissionCode[] }>;
  bindings: Map<string, string[]>;
  offices: Map<string, readonly string[]>;
  temporaryGrants: Map<string, readonly TemporaryGrant[]>;
  delegatedGrants: Map<string, readonly DelegatedGrant[]>;
  abacRules: readonly AbacRule[];
  relations: readonly ResourceRelation[];
  featureOverrides: Map<string, boolean>;
}

function enumValue<E extends Record<string, string | number>>(enumeration: E, value: number | string, what: string): number {
  if (typeof value === 'number') return value; // unknown integers pass through: stored data can hold them
  const found = enumeration[value];
  if (typeof found !== 'number') throw new Error(`Unknown ${what} "${value}"`);
  return found;
}

export function abacRuleFromSnapshot(rule: AbacRuleSnapshot): AbacRule {
  return {
    ...rule,
    verdict: enumValue(AbacVerdict, rule.verdict, 'ABAC verdict') as AbacVerdict,
    conditions: rule.conditions.map((c): AbacCondition => ({
      ...c,
      field: enumValue(AbacField, c.field, 'ABAC field') as AbacField,
      operator: enumValue(AbacOperator, c.operator, 'ABAC operator') as AbacOperator,
    })),
    ...(rule.actions ? { actions: [...rule.actions] as AuthorizationAction[] } : {}),
  };
}

function sameRelation(a: ResourceRelation, b: ResourceRelation): boolean {
  return a.subject === b.subject && a.resourceType === b.resourceType && a.resourceId === b.resourceId && a.relation === b.relation;
}

/**
 * Policy facts held in memory, for unit tests, the conformance corpus and the benchmark. Each
 * store can be made to fail (`failStore`) so fail-closed behaviour can be exercised per store, and
 * reads are counted per store so cache layers can prove what they did not read. Stored values are
 * replaced on change, never mutated, so what a read returned stays as it was.
 */
export class InMemoryPolicyFacts implements PolicyFactsReader {
  private readonly tenants = new Map<string, TenantFacts>();
  private readonly featureDefaults = new Map<string, boolean>();
  private readonly suspendedTenants = new Set<string>();
  /**
   * The tenant-status read is not one of `POLICY_STORE_NAMES` (no evaluator reads it; the engine
   * rules on it over the merge), so its failure and its reads are kept apart.
   */
  private tenantStatusFailure: Error | undefined;
  private tenantStatusReadCount = 0;
  private readonly failures = new Map<PolicyStoreName, Error>();
  private readonly reads = Object.fromEntries(POLICY_STORE_NAMES.map((s) => [s, 0])) as Record<PolicyStoreName, number>;

  static fromSnapshot(snapshot: PolicyFactsSnapshot): InMemoryPolicyFacts {
    const facts = new InMemoryPolicyFacts();
    for (const [code, enabled] of Object.entries(snapshot.featureDefaults ?? {})) facts.setFeatureDefault(code, enabled);
    for (const [tenantId, t] of Object.entries(snapshot.tenants ?? {})) {
      for (const [roleName, role] of Object.entries(t.roles ?? {})) facts.defineRole(tenantId, roleName, role.dataScope, role.permissions);
      for (const [subject, roles] of Object.entries(t.bindings ?? {})) for (const role of roles) facts.bindRole(tenantId, subject, role);
      for (const [subject, officeIds] of Object.entries(t.offices ?? {})) facts.setOffices(tenantId, subject, officeIds);
      for (const [subject, grants] of Object.entries(t.temporaryGrants ?? {})) {
        for (const grant of grants) facts.grantTemporary(tenantId, subject, { ...grant, expiresAt: new Date(grant.expiresAt) });
      }
      for (const [delegator, grants] of Object.entries(t.delegatedGrants ?? {})) {
        for (const grant of grants) facts.delegate(tenantId, delegator, { ...grant, expiresAt: new Date(grant.expiresAt) });
      }
      for (const rule of t.abacRules ?? []) facts.putAbacRule(tenantId, abacRuleFromSnapshot(rule));
      for (const relation of t.relations ?? []) facts.addRelation(tenantId, relation);
      for (const [code, enabled] of Object.entries(t.featureOverrides ?? {})) facts.setFeatureOverride(tenantId, code, enabled);
      if (t.suspended) facts.setTenantSuspended(tenantId, true);
    }
    return facts;
  }

  // ---- reads (the port) ----

  async permissionsOfSubject(tenantId: string, subject: string): Promise<SubjectPermissions> {
    this.read('subjectPermissions');
    const t = this.tenants.get(tenantId);
    if (!t) return { roles: [], temporaryGrants: [], delegatedGrants: [], officeIds: [] };
    const roles: RoleBinding[] = [];
    for (const roleName of t.bindings.get(subject) ?? []) {
      const role = t.roles.get(roleName);
      if (role) roles.push({ roleName, dataScope: role.dataScope, permissions: role.permissions });
    }
    return {
      roles,
      temporaryGrants: t.temporaryGrants.get(subject) ?? [],
      delegatedGrants: t.delegatedGrants.get(subject) ?? [],
      officeIds: t.offices.get(subject) ?? [],
    };
  }

  async abacRules(tenantId: string): Promise<readonly AbacRule[]> {
    this.read('abacRules');
    return this.tenants.get(tenantId)?.abacRules ?? [];
  }

  async relations(tenantId: string, subject: string, resourceType: string, resourceId: string): Promise<readonly ResourceRelation[]> {
    this.read('relations');
    return (this.tenants.get(tenantId)?.relations ?? []).filter((r) => r.subject === subject && r.resourceType === resourceType && r.resourceId === resourceId);
  }

  async featureEnabled(tenantId: string, featureCode: string): Promise<boolean | undefined> {
    this.read('features');
    return this.tenants.get(tenantId)?.featureOverrides.get(featureCode) ?? this.featureDefaults.get(featureCode);
  }

  async tenantSuspended(tenantId: string): Promise<boolean> {
    this.tenantStatusReadCount++;
    if (this.tenantStatusFailure) throw this.tenantStatusFailure;
    return this.suspendedTenants.has(tenantId);
  }

  /** Reads of the tenant status since creation (failed reads included). */
  get tenantStatusReads(): number {
    return this.tenantStatusReadCount;
  }

  /** Every later tenant-status read rejects with `error` until `restoreTenantStatus`. */
  failTenantStatus(error: Error = new Error('The tenant status store is unavailable.')): void {
    this.tenantStatusFailure = error;
  }

  restoreTenantStatus(): void {
    this.tenantStatusFailure = undefined;
  }

  /** Reads per store since creation (failed reads included). */
  readCount(store: PolicyStoreName): number {
    return this.reads[store];
  }

  // ---- failure simulation ----

  /** Every later read of `store` rejects with `error` until `restoreStore`. */
  failStore(store: PolicyStoreName, error: Error = new PolicyStoreUnavailableError(store)): void {
    this.failures.set(store, error);
  }

  restoreStore(store: PolicyStoreName): void {
    this.failures.delete(store);
  }

  // ---- changes ----

  defineRole(tenantId: string, roleName: string, dataScope: DataScopeSetting, permissions: readonly PermissionCode[]): void {
    this.tenant(tenantId).roles.set(roleName, { dataScope, permissions: [...permissions] });
  }

  deleteRole(tenantId: string, roleName: string): void {
    const t = this.tenant(tenantId);
    t.roles.delete(roleName);
    for (const [subject, roles] of t.bindings)
      t.bindings.set(
        subject,
        roles.filter((r) => r !== roleName),
      );
  }

  bindRole(tenantId: string, subject: string, roleName: string): void {
    const t = this.tenant(tenantId);
    const roles = t.bindings.get(subject) ?? [];
    if (!roles.includes(roleName)) t.bindings.set(subject, [...roles, roleName]);
  }

  unbindRole(tenantId: string, subject: string, roleName: string): void {
    const t = this.tenant(tenantId);
    t.bindings.set(
      subject,
      (t.bindings.get(subject) ?? []).filter((r) => r !== roleName),
    );
  }

  setOffices(tenantId: string, subject: string, officeIds: readonly string[]): void {
    this.tenant(tenantId).offices.set(subject, [...officeIds]);
  }

  grantTemporary(tenantId: string, subject: string, grant: TemporaryGrant): void {
    const t = this.tenant(tenantId);
    const others = (t.temporaryGrants.get(subject) ?? []).filter((g) => g.grantId !== grant.grantId);
    t.temporaryGrants.set(subject, [...others, { ...grant, permissions: [...grant.permissions] }]);
  }

  revokeTemporary(tenantId: string, subject: string, grantId: string): void {
    const t = this.tenant(tenantId);
    t.temporaryGrants.set(
      subject,
      (t.temporaryGrants.get(subject) ?? []).filter((g) => g.grantId !== grantId),
    );
  }

  delegate(tenantId: string, delegator: string, grant: DelegatedGrant): void {
    const t = this.tenant(tenantId);
    const others = (t.delegatedGrants.get(delegator) ?? []).filter((g) => g.grantId !== grant.grantId);
    t.delegatedGrants.set(delegator, [...others, { ...grant, permissions: [...grant.permissions] }]);
  }

  revokeDelegation(tenantId: string, delegator: string, grantId: string): void {
    const t = this.tenant(tenantId);
    t.delegatedGrants.set(
      delegator,
      (t.delegatedGrants.get(delegator) ?? []).filter((g) => g.grantId !== grantId),
    );
  }

  /** Adds the rule, or replaces the rule with the same id. */
  putAbacRule(tenantId: string, rule: AbacRule): void {
    const t = this.tenant(tenantId);
    t.abacRules = [...t.abacRules.filter((r) => r.id !== rule.id), rule];
  }

  deleteAbacRule(tenantId: string, ruleId: string): void {
    const t = this.tenant(tenantId);
    t.abacRules = t.abacRules.filter((r) => r.id !== ruleId);
  }

  addRelation(tenantId: string, relation: ResourceRelation): void {
    const t = this.tenant(tenantId);
    if (!t.relations.some((r) => sameRelation(r, relation))) t.relations = [...t.relations, { ...relation }];
  }

  removeRelation(tenantId: string, relation: ResourceRelation): void {
    const t = this.tenant(tenantId);
    t.relations = t.relations.filter((r) => !sameRelation(r, relation));
  }

  /** `undefined` removes the feature's definition. */
  setFeatureDefault(featureCode: string, enabled: boolean | undefined): void {
    if (enabled === undefined) this.featureDefaults.delete(featureCode);
    else this.featureDefaults.set(featureCode, enabled);
  }

  /** `undefined` clears the override, so the global default applies again. */
  setFeatureOverride(tenantId: string, featureCode: string, enabled: boolean | undefined): void {
    const overrides = this.tenant(tenantId).featureOverrides;
    if (enabled === undefined) overrides.delete(featureCode);
    else overrides.set(featureCode, enabled);
  }

  /** Suspends (or reactivates) the tenant, as operations does through policy-management. */
  setTenantSuspended(tenantId: string, suspended: boolean): void {
    if (suspended) this.suspendedTenants.add(tenantId);
    else this.suspendedTenants.delete(tenantId);
  }

  apply(change: PolicyFactsChange): void {
    switch (change.op) {
      case 'defineRole':
        return this.defineRole(change.tenantId, change.roleName, change.dataScope, change.permissions);
      case 'deleteRole':
        return this.deleteRole(change.tenantId, change.roleName);
      case 'bindRole':
        return this.bindRole(change.tenantId, change.subject, change.roleName);
      case 'unbindRole':
        return this.unbindRole(change.tenantId, change.subject, change.roleName);
      case 'setOffices':
        return this.setOffices(change.tenantId, change.subject, change.officeIds);
      case 'grantTemporary':
        return this.grantTemporary(change.tenantId, change.subject, { ...change.grant, expiresAt: new Date(change.grant.expiresAt) });
      case 'revokeTemporary':
        return this.revokeTemporary(change.tenantId, change.subject, change.grantId);
      case 'delegate':
        return this.delegate(change.tenantId, change.delegator, { ...change.grant, expiresAt: new Date(change.grant.expiresAt) });
      case 'revokeDelegation':
        return this.revokeDelegation(change.tenantId, change.delegator, change.grantId);
      case 'putAbacRule':
        return this.putAbacRule(change.tenantId, abacRuleFromSnapshot(change.rule));
      case 'deleteAbacRule':
        return this.deleteAbacRule(change.tenantId, change.ruleId);
      case 'addRelation':
        return this.addRelation(change.tenantId, change.relation);
      case 'removeRelation':
        return this.removeRelation(change.tenantId, change.relation);
      case 'setFeatureDefault':
        return this.setFeatureDefault(change.featureCode, change.enabled ?? undefined);
      case 'setFeatureOverride':
        return this.setFeatureOverride(change.tenantId, change.featureCode, change.enabled ?? undefined);
      case 'failStore':
        return this.failStore(change.store);
      case 'restoreStore':
        return this.restoreStore(change.store);
      default:
        throw new Error(`Unknown policy facts change ${JSON.stringify(change)}`);
    }
  }

  private read(store: PolicyStoreName): void {
    this.reads[store]++;
    const failure = this.failures.get(store);
    if (failure) throw failure;
  }

  private tenant(tenantId: string): TenantFacts {
    let t = this.tenants.get(tenantId);
    if (!t) {
      t = {
        roles: new Map(),
        bindings: new Map(),
        offices: new Map(),
        temporaryGrants: new Map(),
        delegatedGrants: new Map(),
        abacRules: [],
        relations: [],
        featureOverrides: new Map(),
      };
      this.tenants.set(tenantId, t);
    }
    return t;
  }
}
