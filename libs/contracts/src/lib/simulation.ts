import { AuthorizationAction } from './authorization-action';
import { DataScope } from './data-scope';
import { CallerKind } from './trusted-caller';
import { DecisionOutcome, EvaluatorResult, ResourceDescriptor } from './decision';

/**
 * Proposed policy changes a simulation applies on top of the tenant's stored facts (RPC
 * `authz.simulate`, `authz.simulate-replay`). Nothing of it is ever written. Role names, permission
 * codes, feature codes and rule ids must exist (in the caller's tenant where tenant-local).
 */
export interface PolicyOverlay {
  addRoleBindings?: SimulatedRoleBinding[];
  removeRoleBindings?: SimulatedRoleBinding[];
  addRolePermissions?: SimulatedRolePermission[];
  removeRolePermissions?: SimulatedRolePermission[];
  abacRules?: { add?: SimulatedAbacRule[]; remove?: string[] };
  /** Tenant overrides of defined features. */
  features?: SimulatedFeatureOverride[];
}

export interface SimulatedRoleBinding {
  subject: string;
  roleName: string;
}

export interface SimulatedRolePermission {
  roleName: string;
  permissionCode: string;
}

export interface SimulatedFeatureOverride {
  code: string;
  enabled: boolean;
}

/** An ABAC rule as stored (spec §2: integer enumerations; see authz-decision's `abac-rule.ts`). */
export interface SimulatedAbacRule {
  /** Defaults to `simulated-{n}`; ties on priority are broken by id. */
  id?: string;
  name?: string;
  priority: number;
  /** 1 Allow, 2 Deny. */
  verdict: number;
  conditions: Array<{ field: number; operator: number; value?: string | number | boolean | Array<string | number | boolean> }>;
  actions?: AuthorizationAction[];
  modules?: string[];
  resourceTypes?: string[];
  obligations?: string[];
}

/** Bounds shared by policy-management's DTOs and authz-decision's RPC validation. */
export const SimulationLimits = {
  /** Entries per overlay list. */
  maxOverlayEntries: 100,
  maxReplaySample: 500,
  /** Scopes of a simulated application caller. */
  maxScopes: 100,
  defaultReplaySample: 100,
} as const;

/** A simulation states the facts (owner, office) that a real request loads server-side. */
export type SimulatedResource = ResourceDescriptor;

/**
 * Who a simulation decides for, as the token of that caller would say (`TrustedCaller`): a user
 * (`subject`); an application (`subject` its client id; `scopes` its token's scopes, which AppScope
 * checks; `clientId` defaults to the subject); or a delegated caller (`subject` the user acted for,
 * `actor` the acting subject, `grantId` the delegation the token names, if any).
 */
export interface SimulatedCaller {
  /** Default `user`. */
  callerKind?: CallerKind;
  /** Application only. */
  clientId?: string;
  /** Application only. */
  scopes?: string[];
  /** Delegated only, and required there. */
  actor?: string;
  /** Delegated only. */
  grantId?: string;
}

export interface SimulateRequest extends SimulatedCaller {
  /** A subject of the caller's tenant: the user, the application's client id, or the user acted for. */
  subject: string;
  request: { resource: SimulatedResource; action: AuthorizationAction };
  overlay?: PolicyOverlay;
}

export interface SimulateReplayRequest {
  overlay?: PolicyOverlay;
  /** 1..500, default 100: the newest audited decisions in the window. */
  sample?: number;
  /** Inclusive ISO instant. */
  from?: string;
  /** Exclusive ISO instant. */
  to?: string;
}

export interface SimulatedDecision {
  outcome: DecisionOutcome;
  permitted: boolean;
  evaluations: EvaluatorResult[];
  obligations: string[];
  dataScope: DataScope;
  failure?: string;
}

export interface ReplayFlip {
  decisionId: string;
  decidedAt: string;
  callerKind: CallerKind;
  subject: string;
  actor?: string;
  clientId?: string;
  action: string;
  resource: SimulatedResource;
  /** The outcome the audit recorded when the decision was made. */
  recorded: DecisionOutcome;
  /** Re-decided now, without the overlay. */
  before: DecisionOutcome;
  /** Re-decided now, with the overlay. */
  after: DecisionOutcome;
}

export interface SimulateReplayResult {
  /** Audited decisions re-decided (twice: without and with the overlay). */
  replayed: number;
  /** Audited decisions that could not be rebuilt into a valid request (none expected). */
  skipped: number;
  flipped: ReplayFlip[];
}
