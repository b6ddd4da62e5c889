import * as oauth from 'oauth4webapi';
import type { ConsoleConfig } from '../config';
import { oidcFailure } from './problems';
import { keepTransaction, safeReturnPath, SignInTransaction } from './transaction';

export type OidcSettings = NonNullable<ConsoleConfig['oidc']>;

/** Where the issuer sends the browser back (the console's client must list exactly this URI). */
export function redirectUri(): string {
  return `${window.location.origin}${import.meta.env.BASE_URL}oidc/callback`;
}

const ISSUER_TIMEOUT_MS = 10_000;

/**
 * How the console talks to the issuer: bounded in time, and over https, except an issuer on this
 * machine's loopback (a development issuer; the server refuses any other http issuer at boot).
 */
function transport(issuer: URL): oauth.HttpRequestOptions<'GET' | 'POST', unknown> {
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  return { signal: () => AbortSignal.timeout(ISSUER_TIMEOUT_MS), [oauth.allowInsecureRequests]: issuer.protocol === 'http:' && loopback };
}

/** OIDC discovery at `${issuer}/.well-known/openid-configuration`; the answer must name the same issuer. */
async function discover(settings: OidcSettings): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...transport(issuer) });
  return oauth.processDiscoveryResponse(issuer, response);
}

/**
 * Starts the authorization code flow with PKCE (S256): a fresh `state` and `code_verifier` are kept
 * for this tab, and the URL of the issuer's authorization endpoint is returned for the browser to go
 * to. `returnTo` is the console path to come back to.
 */
export async function beginSignIn(settings: OidcSettings, returnTo: string): Promise<URL> {
  const as = await discover(settings);
  if (!as.authorization_endpoint)
    throw oidcFailure('Oidc.NoAuthorizationEndpoint', `The identity provider at ${settings.issuer} publishes no authorization endpoint.`);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('scope', settings.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  keepTransaction({ issuer: settings.issuer, clientId: settings.clientId, state, codeVerifier, returnTo: safeReturnPath(returnTo) });
  return url;
}

/**
 * Finishes the flow on the callback: the answer must carry the `state` this tab sent (else it is
 * someone else's, and nothing is redeemed), the issuer's error (consent refused, say) is thrown as
 * it is, and the code is redeemed at the token endpoint as a public client (`client_id` and the
 * PKCE verifier, no secret). Returns the access token: the token the platform's APIs verify against
 * the issuer's JWKS (`iss`, `aud`, `tenant_id`); the ID token is checked by oauth4webapi and not kept.
 */
export async function completeSignIn(settings: OidcSettings, transaction: SignInTransaction | undefined, callback: URL): Promise<string> {
  if (!transaction) {
    throw oidcFailure(
      'Oidc.NoSignInStarted',
      'This tab has no single sign-on in progress (it was completed already, or started in another tab): start the sign-in again.',
    );
  }
  if (transaction.issuer !== settings.issuer || transaction.clientId !== settings.clientId) {
    throw oidcFailure('Oidc.SettingsChanged', 'The platform changed its single sign-on settings during the sign-in: start it again.');
  }
  if (callback.searchParams.get('state') !== transaction.state) {
    throw oidcFailure(
      'Oidc.StateMismatch',
      'The answer that came back does not belong to the sign-in this tab started (state mismatch), so it was not used: start the sign-in again.',
    );
  }
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const parameters = oauth.validateAuthResponse(as, client, callback, transaction.state);
  const issuer = new URL(settings.issuer);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, redirectUri(), transaction.codeVerifier, transport(issuer));
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  if (result.token_type !== 'bearer') {
    throw oidcFailure('Oidc.UnsupportedTokenType', `The identity provider issued a "${result.token_type}" token; the platform takes bearer tokens.`);
  }
  return result.access_token;
}
