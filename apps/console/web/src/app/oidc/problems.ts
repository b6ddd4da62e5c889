import * as oauth from 'oauth4webapi';
import { ApiProblem } from '../../api/problem';

/** A sign-in failure of the console's own (no HTTP status: nothing was asked of the platform). */
export function oidcFailure(code: string, detail: string, status = 0): ApiProblem {
  return new ApiProblem(status, { code, detail });
}

/**
 * Whatever the sign-in failed with, as the problem the sign-in screen shows: the issuer's own
 * error and description when it gave one (RFC 6749 §4.1.2.1 at the authorization endpoint, §5.2 at
 * the token endpoint), the platform's problem when the platform refused the token.
 */
export function oidcProblem(error: unknown, issuer: string): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const at = hostOf(issuer);
  if (error instanceof oauth.AuthorizationResponseError) {
    const said = error.error_description ? `: ${sentence(error.error_description)}` : '';
    const detail =
      error.error === 'access_denied'
        ? `The sign-in at ${at} was cancelled or the console was not allowed${said}. You are not signed in.`
        : `The identity provider at ${at} refused the sign-in (${error.error})${said}.`;
    return oidcFailure(`Oidc.${error.error}`, detail);
  }
  if (error instanceof oauth.ResponseBodyError) {
    const said = error.error_description ? `: ${sentence(error.error_description)}` : '';
    return oidcFailure(`Oidc.${error.error}`, `The identity provider at ${at} did not issue a token for this sign-in (${error.error})${said}.`, error.status);
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return oidcFailure('Oidc.ClientRejected', `The identity provider at ${at} did not accept the console's client: ${sentence(error.message)}.`, error.status);
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return oidcFailure('Oidc.InvalidResponse', `The answer of the identity provider at ${at} could not be used: ${sentence(error.message)}.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return oidcFailure('Oidc.Unreachable', `The identity provider at ${at} could not be reached: ${sentence(message)}.`);
}

/**
 * The platform's refusal of the token the issuer issued (wrong audience or issuer, no tenant, an
 * unknown key): the API's own words, said to come from the platform, so an operator sees which of
 * the two is set up wrong.
 */
export function platformRefusal(problem: ApiProblem): ApiProblem {
  return new ApiProblem(problem.status, {
    code: problem.code,
    detail: `The platform does not accept the token the identity provider issued: ${problem.detail}`,
    correlationId: problem.correlationId,
  });
}

/** A message to embed in a sentence of ours, without its own final period. */
function sentence(text: string): string {
  return text.trim().replace(/\.+$/, '');
}

/** A problem as plain data, to travel in the router's history state to the sign-in screen. */
export interface CarriedProblem {
  status: number;
  code: string;
  detail: string;
  correlationId?: string;
}

export function carry(problem: ApiProblem): CarriedProblem {
  return { status: problem.status, code: problem.code, detail: problem.detail, correlationId: problem.correlationId };
}

export function carriedProblem(state: unknown): ApiProblem | undefined {
  const carried = (state as { oidcProblem?: Partial<CarriedProblem> } | null)?.oidcProblem;
  if (!carried || typeof carried.detail !== 'string') return undefined;
  return new ApiProblem(Number(carried.status) || 0, { code: carried.code, detail: carried.detail, correlationId: carried.correlationId });
}

export function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}
