import { FormEvent, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiClient } from '../api/client';
import { useSessionState } from '../api/session';
import { Busy, Field, ProblemMessage } from '../ui/kit';
import { consoleConfig } from './config';
import { OidcSignIn } from './oidc';

/**
 * Sign-in: paste a bearer token (the embedded profile's `npm start` prints an admin token), or, when
 * the platform is configured with an OIDC issuer, sign in there (authorization code + PKCE). A pasted
 * token is tried against `/me/permissions` before it is kept, so a wrong one is refused here with the
 * API's own message.
 */
export function SignIn() {
  const { signIn } = useSessionState();
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const [checking, setChecking] = useState(false);
  const config = useQuery({ queryKey: ['console-config'], queryFn: consoleConfig, staleTime: Infinity });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    const candidate = token.trim().replace(/^Bearer\s+/i, '');
    if (!candidate) {
      setError(new Error('Paste a token first.'));
      return;
    }
    setChecking(true);
    try {
      await new ApiClient(candidate).get('/api/authorization/me/permissions');
      signIn(candidate);
    } catch (problem) {
      setError(problem);
    } finally {
      setChecking(false);
    }
  }

  return (
    <main id="main" className="signin">
      <h1>Sign in to the console</h1>
      {config.data?.oidc ? <OidcSignIn oidc={config.data.oidc} onError={setError} /> : null}
      <form onSubmit={(event) => void submit(event)} aria-describedby="signin-help">
        <Field
          label="Access token"
          hint={
            <span id="signin-help">
              A bearer token for the platform. With <code>npm start</code>, paste the admin token it printed.
            </span>
          }
        >
          {(id, describedBy) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              name="token"
              rows={4}
              value={token}
              onChange={(event) => setToken(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <button type="submit" disabled={checking}>
          Sign in
        </button>
        {checking ? <Busy label="Checking the token…" /> : null}
      </form>
      <ProblemMessage error={error} title="Sign-in failed" />
    </main>
  );
}
