import { createHash } from 'node:crypto';
import { AccessTokenClaims, actorChainOf, rolesOf, scopesOf, stringClaim } from './access-token-claims';

/**
 * SHA-256 (hex) over the claims that may change an authorization decision, normalised so two
 * tokens granting the same thing digest alike (scope order, duplicates). `iat`, `exp` and `jti`
 * are left out on purpose: a refreshed token for the same grant must hit the same decision-cache
 * entry. Anything that can widen or narrow access is in, so a changed token never reuses a decision.
 */
export function claimsDigest(claims: AccessTokenClaims): string {
  // Fixed field order and explicit nulls: the serialisation is canonical without a JSON canonicaliser.
  const material = JSON.stringify([
    ['sub', stringClaim(claims.sub) ?? null],
    ['tenant_id', stringClaim(claims.tenant_id) ?? null],
    ['client_id', stringClaim(claims.client_id) ?? null],
    ['scope', scopesOf(claims)],
    ['act', actorChainOf(claims) ?? null],
    ['grant_id', stringClaim(claims.grant_id) ?? null],
    ['roles', rolesOf(claims)],
  ]);
  return createHash('sha256').update(material).digest('hex');
}
