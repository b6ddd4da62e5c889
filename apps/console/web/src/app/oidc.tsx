import type { ConsoleConfig } from './config';

/** OIDC sign-in (authorization code + PKCE); filled in by the OIDC work. */
export function OidcSignIn({ oidc }: { oidc: NonNullable<ConsoleConfig['oidc']>; onError: (error: unknown) => void }) {
  return <p>Single sign-on at {oidc.issuer} is configured.</p>;
}

/** Where the issuer sends the browser back with the code. */
export function OidcCallback() {
  return <p>Signing in…</p>;
}
