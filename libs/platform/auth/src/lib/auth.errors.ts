import { AuthenticationError, DomainError, ProblemCodes } from '@lp/contracts';

/**
 * Why a bearer token was refused, as the client reads it in the problem `detail`. Each names the
 * failed check and nothing from the token itself: a token in an error body or log would be a leak.
 */
export const AuthenticationFailure = {
  noToken: 'A bearer token is required (Authorization: Bearer <token>).',
  malformed: 'The bearer token is not a well-formed JWT.',
  unsigned: 'Unsigned tokens (alg "none") are not accepted.',
  unsupportedAlgorithm: 'The token is signed with an algorithm this service does not accept.',
  badSignature: 'The token signature is not valid.',
  unknownKey: 'The token is signed with a key the issuer does not publish.',
  expired: 'The token has expired.',
  noExpiry: 'The token has no expiry (exp claim); tokens that never expire are not accepted.',
  tooLongLived: 'The token lives longer than this service accepts (exp too far after iat).',
  issuedInFuture: 'The token claims to be issued in the future (iat).',
  unknownCritical: 'The token header names critical extensions (crit) this service does not understand.',
  notYetValid: 'The token is not valid yet.',
  wrongIssuer: 'The token was not issued by the trusted issuer.',
  wrongAudience: 'The token is not intended for this service (audience mismatch).',
  noTenant: 'The token does not name a tenant (tenant_id claim).',
  badTenant:
    'The token names no valid tenant: tenant_id must be lower-case letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters.',
  noSubject: 'The token names no subject (sub or client_id claim).',
  badActor: 'The token has an unusable act claim (RFC 8693 requires act.sub).',
  unverifiable: 'The bearer token could not be verified.',
} as const;

export function authenticationFailure(reason: keyof typeof AuthenticationFailure): AuthenticationError {
  return new AuthenticationError(AuthenticationFailure[reason]);
}

/**
 * The issuer's key set could not be fetched. Not the caller's fault, so not a 401: the request is
 * refused (fail closed) with a status that tells clients and operators to retry or look at the issuer.
 */
export class IdentityProviderUnavailableError extends DomainError {
  constructor() {
    super(ProblemCodes.unavailable, 503, "The identity provider's signing keys could not be retrieved.");
  }
}
