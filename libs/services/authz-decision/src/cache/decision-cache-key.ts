import { hash } from 'node:crypto';
import type { DecisionRequest } from '@lp/contracts';
import { DecisionCacheStamp, decisionRevisionValues } from './decision-revision-keys';

/** Bumped when the key material changes shape, so old entries are never read with a new meaning. */
const KEY_VERSION = 'decision-v2';

/**
 * The decision cache key (spec §1 Cache behavior 1): caller kind and subject, claims digest,
 * scopes (AppScope reads them; the digest covers them for tokens, this also for callers built
 * otherwise), actor and grant (only delegated callers carry them, and they bypass the cache; in
 * the key anyway so no such caller could ever share an entry), tenant, client, every resource fact,
 * the action, and the stamp: the revision values and their epoch. Canonical by construction: fixed positions, absent = null,
 * scopes sorted and deduplicated. SHA-256, so the key stays short whatever the facts are.
 */
export function decisionCacheKey(request: DecisionRequest, { epoch, revisions }: DecisionCacheStamp): string {
  const { caller, resource, action } = request;
  const material = JSON.stringify([
    KEY_VERSION,
    caller.kind,
    caller.subject,
    caller.claimsDigest,
    caller.tenantId,
    caller.clientId ?? null,
    caller.actor ?? null,
    caller.grantId ?? null,
    [...new Set(caller.scopes ?? [])].sort(),
    resource.module,
    resource.resourceType,
    resource.resourceId ?? null,
    resource.status ?? null,
    resource.amount ?? null,
    resource.sensitivity ?? null,
    resource.owner ?? null,
    resource.officeId ?? null,
    action,
    epoch,
    decisionRevisionValues(revisions),
  ]);
  return `decision:${hash('sha256', material, 'hex')}`;
}
