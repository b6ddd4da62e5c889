import { PermissionCode, PolicyOverlay } from '@lp/contracts';
import { AbacRule } from '../engine/abac-rule';
import { PolicyFactsReader, ResourceRelation, RoleBinding, SubjectPermissions } from '../engine/policy-facts';

/**
 * A policy overlay resolved against the stored catalog: every role it names with its stored data
 * scope and codes (needed to bind a role the subject does not hold yet), and the ABAC rules to add
 * already in the decision core's shape.
 */
export interface ResolvedOverlay {
  tenantId: string;
  overlay: PolicyOverlay;
  /** Stored definitions of the roles the overlay binds, by role name. */
  roles: ReadonlyMap<string, RoleBinding>;
  addedAbacRules: readonly AbacRule[];
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * `PolicyFactsReader` decorator: the stored facts with proposed changes applied on top, for
 * what-if decisions. Only the overlay's tenant is changed; reads of any other tenant pass through.
 * Order of application: bindings are removed, then added (an added binding uses the role's stored
 * definition); then, on every bound role, permissions are removed, then added. ABAC: rules with a
 * removed id are dropped, then the added rules join. Features: the overlay's tenant override wins
 * over the stored override and default, for features that are defined (as the table's foreign key
 * demands). Relations are not part of the overlay.
 */
export class OverlayPolicyFacts implements PolicyFactsReader {
  private readonly removedBindings: Set<string>;
  private readonly addedBindings: Map<string, string[]>;
  private readonly removedPermissions: Set<string>;
  private readonly addedPermissions: Map<string, PermissionCode[]>;
  private readonly removedRules: Set<string>;
  private readonly features: Map<string, boolean>;

  constructor(
    private readonly base: PolicyFactsReader,
    private readonly resolved: ResolvedOverlay,
  ) {
    const o = resolved.overlay;
    this.removedBindings = new Set((o.removeRoleBindings ?? []).map((b) => key(b.subject, b.roleName)));
    this.addedBindings = new Map();
    for (const b of o.addRoleBindings ?? []) this.addedBindings.set(b.subject, [...(this.addedBindings.get(b.subject) ?? []), b.roleName]);
    this.removedPermissions = new Set((o.removeRolePermissions ?? []).map((p) => key(p.roleName, p.permissionCode)));
    this.addedPermissions = new Map();
    for (const p of o.addRolePermissions ?? []) {
      this.addedPermissions.set(p.roleName, [...(this.addedPermissions.get(p.roleName) ?? []), p.permissionCode as PermissionCode]);
    }
    this.removedRules = new Set(o.abacRules?.remove ?? []);
    this.features = new Map((o.features ?? []).map((f) => [f.code, f.enabled]));
  }

  /** Suspension is not part of an overlay: a what-if for a suspended tenant shows the denial it would get. */
  tenantSuspended = (tenantId: string): Promise<boolean> => (this.base.tenantSuspended ? this.base.tenantSuspended(tenantId) : Promise.resolve(false));

  async permissionsOfSubject(tenantId: string, subject: string): Promise<SubjectPermissions> {
    const stored = await this.base.permissionsOfSubject(tenantId, subject);
    if (tenantId !== this.resolved.tenantId) return stored;
    const roles = stored.roles.filter((r) => !this.removedBindings.has(key(subject, r.roleName)));
    for (const roleName of this.addedBindings.get(subject) ?? []) {
      if (roles.some((r) => r.roleName === roleName)) continue;
      const definition = this.resolved.roles.get(roleName);
      if (definition) roles.push(definition);
    }
    return { ...stored, roles: roles.map((r) => this.withPermissionChanges(r)).sort((a, b) => a.roleName.localeCompare(b.roleName)) };
  }

  async abacRules(tenantId: string): Promise<readonly AbacRule[]> {
    const stored = await this.base.abacRules(tenantId);
    if (tenantId !== this.resolved.tenantId) return stored;
    return [...stored.filter((r) => !this.removedRules.has(r.id)), ...this.resolved.addedAbacRules];
  }

  relations(tenantId: string, subject: string, resourceType: string, resourceId: string): Promise<readonly ResourceRelation[]> {
    return this.base.relations(tenantId, subject, resourceType, resourceId);
  }

  async featureEnabled(tenantId: string, featureCode: string): Promise<boolean | undefined> {
    const stored = await this.base.featureEnabled(tenantId, featureCode);
    if (tenantId !== this.resolved.tenantId || stored === undefined) return stored;
    return this.features.get(featureCode) ?? stored;
  }

  private withPermissionChanges(role: RoleBinding): RoleBinding {
    const added = this.addedPermissions.get(role.roleName) ?? [];
    const kept = role.permissions.filter((code) => !this.removedPermissions.has(key(role.roleName, code)));
    const permissions = [...new Set([...kept, ...added])].sort();
    return { ...role, permissions };
  }
}

/**
 * Remembers every read for the life of one simulation, so a replay of hundreds of decisions reads
 * each subject, the rules and each feature once. Never shared between simulations: it would serve
 * stale facts.
 */
export class MemoizedPolicyFacts implements PolicyFactsReader {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(private readonly base: PolicyFactsReader) {}

  permissionsOfSubject(tenantId: string, subject: string): Promise<SubjectPermissions> {
    return this.once(['p', tenantId, subject], () => this.base.permissionsOfSubject(tenantId, subject));
  }

  abacRules(tenantId: string): Promise<readonly AbacRule[]> {
    return this.once(['a', tenantId], () => this.base.abacRules(tenantId));
  }

  tenantSuspended = (tenantId: string): Promise<boolean> =>
    this.once(['s', tenantId], () => (this.base.tenantSuspended ? this.base.tenantSuspended(tenantId) : Promise.resolve(false)));

  relations(tenantId: string, subject: string, resourceType: string, resourceId: string): Promise<readonly ResourceRelation[]> {
    return this.once(['r', tenantId, subject, resourceType, resourceId], () => this.base.relations(tenantId, subject, resourceType, resourceId));
  }

  featureEnabled(tenantId: string, featureCode: string): Promise<boolean | undefined> {
    return this.once(['f', tenantId, featureCode], () => this.base.featureEnabled(tenantId, featureCode));
  }

  private once<T>(parts: string[], read: () => Promise<T>): Promise<T> {
    const k = JSON.stringify(parts);
    let value = this.memo.get(k) as Promise<T> | undefined;
    if (!value) {
      value = read();
      // A failed read is not remembered: the evaluator fails closed for it, the next read may succeed.
      value.catch(() => this.memo.delete(k));
      this.memo.set(k, value);
    }
    return value;
  }
}
