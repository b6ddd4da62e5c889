import { AuthorizationAction, permissionCode, ResourceDescriptor, TrustedCaller, validateDecisionRequest, ValidDecisionRequest } from '@lp/contracts';
import { Clock } from '../src/engine/clock';
import { EvaluationContext } from '../src/engine/evaluator';

// Builders shared by the specs of this folder; not exported from the library.

export const TENANT = 't1';
export const NOW = new Date('2026-06-01T12:00:00.000Z');

export function user(subject = 'alice', extra: Partial<TrustedCaller> = {}): TrustedCaller {
  return { kind: 'user', subject, tenantId: TENANT, scopes: [], claimsDigest: `digest-${subject}`, ...extra };
}

export function application(clientId = 'billing-sync', scopes: string[] = [], extra: Partial<TrustedCaller> = {}): TrustedCaller {
  return { kind: 'application', subject: clientId, clientId, tenantId: TENANT, scopes, claimsDigest: `digest-${clientId}`, ...extra };
}

/** `actor` acting for `subject` (RFC 8693). */
export function delegated(subject = 'alice', actor = 'bob', extra: Partial<TrustedCaller> = {}): TrustedCaller {
  return { kind: 'delegated', subject, actor, tenantId: TENANT, scopes: [], claimsDigest: `digest-${actor}-for-${subject}`, ...extra };
}

export function request(caller: TrustedCaller, action: AuthorizationAction, resource: Partial<ResourceDescriptor> = {}): ValidDecisionRequest {
  return validateDecisionRequest({ caller, action, resource: { module: 'cases', resourceType: 'case', ...resource } });
}

export function contextOf(req: ValidDecisionRequest, now: Date = NOW): EvaluationContext {
  return { request: req, permissionCode: permissionCode(req.resource.module, req.resource.resourceType, req.action), now };
}

/** A clock the test moves by hand. */
export function manualClock(start: Date = NOW): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  const clock = (() => new Date(current)) as Clock & { set(at: Date | string): void; advance(ms: number): void };
  clock.set = (at) => {
    current = new Date(at);
  };
  clock.advance = (ms) => {
    current = new Date(current.getTime() + ms);
  };
  return clock;
}

export function minutesFrom(base: Date, minutes: number): Date {
  return new Date(base.getTime() + minutes * 60_000);
}
