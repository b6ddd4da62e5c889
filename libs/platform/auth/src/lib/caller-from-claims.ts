import { isTenantId, type TrustedCaller } from '@lp/contracts';
import { AccessTokenClaims, actorChainOf, scopesOf, stringClaim } from './access-token-claims';
import { authenticationFailure } from './auth.errors';
import { claimsDigest } from './claims-digest';

/**
 * Maps the claims of an already verified token to the caller every decision is made for.
 * Throws `AuthenticationError` when the claims cannot name a tenant and a subject, or name a tenant
 * the tenant store could not hold (`isTenantId`): a token signed with the real key still names no
 * tenant when its `tenant_id` is `Default`, `../default` or carries a NUL.
 *
 * - delegated: an RFC 8693 `act` claim; the decision is for `sub`, `act.sub` is who acts.
 * - application: `client_id` with no `sub`, or `sub` equal to it. RFC 9068 tokens carry
 *   `client_id` on every grant (oidc-provider too) and set `sub` to the client id only when no
 *   resource owner is involved (client credentials), so `client_id` alone does not make an
 *   application: a user's token issued to a client is still that user's.
 * - user: otherwise, `sub`.
 */
export function callerFromClaims(claims: AccessTokenClaims): TrustedCaller {
  const tenantId = stringClaim(claims.tenant_id);
  if (!tenantId) throw authenticationFailure('noTenant');
  if (!isTenantId(tenantId)) throw authenticationFailure('badTenant');

  const clientId = stringClaim(claims.client_id);
  const sub = stringClaim(claims.sub);
  const subject = sub ?? clientId;
  if (!subject) throw authenticationFailure('noSubject');

  const actors = actorChainOf(claims);
  if (actors === null) throw authenticationFailure('badActor');

  const common = {
    subject,
    tenantId,
    scopes: scopesOf(claims),
    claimsDigest: claimsDigest(claims),
    ...(clientId ? { clientId } : {}),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
  };

  if (actors) {
    const grantId = stringClaim(claims.grant_id);
    return { kind: 'delegated', ...common, actor: actors[0], ...(grantId ? { grantId } : {}) };
  }
  if (clientId && subject === clientId) {
    return { kind: 'application', ...common };
  }
  return { kind: 'user', ...common };
}
