import { PermissionCode } from '@lp/contracts';
import { AbacRule } from './abac-rule';

/**
 * The port through which the decision core reads policy facts (spec §1 rule 4: the decision plane
 * only reads). Adapters: `InMemoryPolicyFacts` for tests and the benchmark; the service wires one
 * over the read-only `authz` schema and its caches. Every method is tenant-scoped. A store failure
 * is a thrown (rejected) error; the evaluators decide how to fail closed.
 */
/**
 * The revision counters of one decision, read once by the decision service and handed down to the
 * readers that cache facts under revisions (DataScope and ReBAC caches), so every cache of one
 * decision sees the same revisions without another round trip. Readers without a cache ignore it.
 */
export interface RevisionSnapshot {
  /** The counters' epoch (see `RevisionStamp`): part of every key built from these values. */
  readonly epoch: string;
  readonly values: ReadonlyMap<string, number>;
}

export interface PolicyFactsReader {
  /** Everything that can give `subject` a permission code in `tenantId`, in one read. */
  permissionsOfSubject(tenantId: string, subject: string, revisions?: RevisionSnapshot): Promise<SubjectPermissions>;
  /** The tenant's ABAC rules; the evaluator orders them by priority itself. */
  abacRules(tenantId: string): Promise<readonly AbacRule[]>;
  /** The relations of `subject` to one resource instance. */
  relations(tenantId: string, subject: string, resourceType: string, resourceId: string, revisions?: RevisionSnapshot): Promise<readonly ResourceRelation[]>;
  /** The tenant override of a feature, else its global default; `undefined` when the feature is not defined. */
  featureEnabled(tenantId: string, featureCode: string): Promise<boolean | undefined>;
  /**
   * Whether the tenant is suspended (its callers are denied every decision). Optional so readers
   * that only overlay other facts (simulation) keep compiling; the engine treats a reader without
   * it as "never suspended", so every reader the service decides with must forward it (the SQL
   * reader and both cache wrappers do, and their specs check it).
   */
  tenantSuspended?(tenantId: string, revisions?: RevisionSnapshot): Promise<boolean>;
}

/** The stores behind the port, named so failures can be simulated and reported per store. */
export type PolicyStoreName = 'subjectPermissions' | 'abacRules' | 'relations' | 'features';
export const POLICY_STORE_NAMES: readonly PolicyStoreName[] = ['subjectPermissions', 'abacRules', 'relations', 'features'];

/**
 * A role's data-scope setting: which rows of the tenant a permission granted by the role reaches.
 * `office` means the subject's own offices (`SubjectPermissions.officeIds`).
 */
export type DataScopeSetting = 'tenant' | 'office' | 'own' | 'none';
export const DATA_SCOPE_SETTINGS: readonly DataScopeSetting[] = ['tenant', 'office', 'own', 'none'];

export interface SubjectPermissions {
  /** Roles bound to the subject (role name is the tenant-local key, spec §2) with their permission codes. */
  roles: readonly RoleBinding[];
  /** Grants held by the subject itself, e.g. a workflow-approved access request (spec §1 rule 5). */
  temporaryGrants: readonly TemporaryGrant[];
  /** Grants in which the subject lets an actor act on its behalf (RFC 8693 delegation). */
  delegatedGrants: readonly DelegatedGrant[];
  /** Offices the subject belongs to; an `office` data scope resolves to these. */
  officeIds: readonly string[];
}

export interface RoleBinding {
  roleName: string;
  dataScope: DataScopeSetting;
  permissions: readonly PermissionCode[];
}

/**
 * A time-boxed grant of permission codes to the subject. Active while `now < expiresAt`: at the
 * expiry instant it no longer counts. Adapters may return expired grants; the core filters them.
 */
export interface TemporaryGrant {
  grantId: string;
  permissions: readonly PermissionCode[];
  expiresAt: Date;
  /** Row scope of the grant; absent means the documented default (see `data-scope.resolver.ts`). */
  dataScope?: DataScopeSetting;
}

/**
 * The subject (delegator) lets `actor` act on its behalf for the listed codes until `expiresAt`.
 * It never widens the delegator's authority: a delegated caller needs the code in the grant AND
 * held by the delegator (role or active temporary grant) at decision time.
 */
export interface DelegatedGrant {
  grantId: string;
  actor: string;
  permissions: readonly PermissionCode[];
  expiresAt: Date;
}

/** Spec §2 resource relation record: tenant-local relation of a subject to one resource instance. */
export type RelationName = 'owner' | 'member' | 'viewer';
export const RELATION_NAMES: readonly RelationName[] = ['owner', 'member', 'viewer'];

export interface ResourceRelation {
  subject: string;
  resourceType: string;
  resourceId: string;
  relation: RelationName;
}

/** What `InMemoryPolicyFacts` throws for a simulated failure; real adapters throw their own errors. */
export class PolicyStoreUnavailableError extends Error {
  constructor(
    readonly store: PolicyStoreName,
    message = `The ${store} store is unavailable.`,
  ) {
    super(message);
    this.name = 'PolicyStoreUnavailableError';
  }
}
