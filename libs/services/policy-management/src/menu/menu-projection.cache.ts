import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { authorizationChangeTarget, EventTypes } from '@lp/contracts';
import type { PermissionTree } from '../permissions/permission-tree';
import type { EffectivePermissions } from './effective-permissions.reader';

/** What a caller holds, projected: its permissions with their sources, and its menu. */
export interface MenuProjection extends EffectivePermissions {
  menu: PermissionTree;
}

/** Whose projections an `authorization.*` event makes stale in this process. */
export type MenuDropPlan =
  | { tenantId: string; subjects: string[] }
  | { tenantId: string; wholeTenant: true }
  /** A global feature default changed: every tenant's disabled features may change. */
  | { everyTenant: true }
  | null;

const A = EventTypes.authorization;
/** A role's name, permissions or existence changed: every holder's menu may change, holders are not named. */
const TENANT_EVENTS: readonly string[] = [A.roleCreated, A.roleUpdated, A.roleDeleted, A.rolePermissionChanged];
/** The named subject's own bindings or grants changed. */
const SUBJECT_EVENTS: readonly string[] = [A.userRoleAssigned, A.userRoleRevoked, A.temporaryGrantChanged, A.delegationChanged];

/** Pure; reads whom a change concerns as authz-decision's invalidation does (`authorizationChangeTarget`). */
export function menuDropPlan(eventType: string, payload: unknown, envelopeTenantId?: string | null): MenuDropPlan {
  const { tenantId, subjects, scope } = authorizationChangeTarget({ eventType, payload, tenantId: envelopeTenantId ?? null });
  // A feature switches modules off in the menu: an override changes its tenant, a default every tenant.
  if (eventType === A.featureChanged) return scope === 'global' || tenantId === undefined ? { everyTenant: true } : { tenantId, wholeTenant: true };
  if (tenantId === undefined) return null;
  if (TENANT_EVENTS.includes(eventType)) return { tenantId, wholeTenant: true };
  if (!SUBJECT_EVENTS.includes(eventType)) return null;
  return subjects.length === 0 ? { tenantId, wholeTenant: true } : { tenantId, subjects };
}

interface Entry extends MenuProjection {
  tenantId: string;
}

/**
 * Per-process cache of menu projections by (tenant, subject). Every instance drops entries on the
 * `authorization.*` events it receives (MenuInvalidationListener); the instance that made a change
 * also drops them in-line, so its own next answer is already fresh. A projection computed while a
 * drop happened is not stored (generation check), so a read racing a change cannot store the old
 * state after the drop.
 */
@Injectable()
export class MenuProjectionCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000 });
  private generation = 0;

  private static key(tenantId: string, subject: string): string {
    return JSON.stringify([tenantId, subject]);
  }

  /** The cached projection, unless it has outlived a temporary grant. */
  get(tenantId: string, subject: string, now = Date.now()): MenuProjection | undefined {
    const key = MenuProjectionCache.key(tenantId, subject);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntil !== null && now >= entry.validUntil) {
      this.entries.delete(key);
      return undefined;
    }
    const { tenantId: _tenant, ...projection } = entry;
    return projection;
  }

  /** Take before reading the store; pass to `set`. */
  ticket(): number {
    return this.generation;
  }

  /** Stores the projection unless something was dropped since `ticket` was taken. */
  set(tenantId: string, subject: string, projection: MenuProjection, ticket: number): void {
    if (ticket !== this.generation) return;
    this.entries.set(MenuProjectionCache.key(tenantId, subject), { ...projection, tenantId });
  }

  /** Drops what the event makes stale; returns the plan applied (for logs and tests). */
  forget(eventType: string, payload: unknown, envelopeTenantId?: string | null): MenuDropPlan {
    const plan = menuDropPlan(eventType, payload, envelopeTenantId);
    if (plan === null) return null;
    this.generation++;
    if ('everyTenant' in plan) {
      this.entries.clear();
    } else if ('subjects' in plan) {
      for (const subject of plan.subjects) this.entries.delete(MenuProjectionCache.key(plan.tenantId, subject));
      // A delegate's view lists what its delegators still hold: their changes are its changes.
      const dependents = [...this.entries.entries()]
        .filter(([, e]) => e.tenantId === plan.tenantId && e.delegators.some((d) => plan.subjects.includes(d)))
        .map(([k]) => k);
      for (const key of dependents) this.entries.delete(key);
    } else {
      const stale = [...this.entries.entries()].filter(([, e]) => e.tenantId === plan.tenantId).map(([k]) => k);
      for (const key of stale) this.entries.delete(key);
    }
    return plan;
  }

  get size(): number {
    return this.entries.size;
  }
}
