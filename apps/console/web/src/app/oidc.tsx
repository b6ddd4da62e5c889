import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ApiClient } from '../api/client';
import { ApiProblem, asProblem } from '../api/problem';
import { useSessionState } from '../api/session';
import { Busy } from '../ui/kit';
import { ConsoleConfig, consoleConfig } from './config';
import { beginSignIn, completeSignIn } from './oidc/flow';
import { carriedProblem, carry, hostOf, oidcFailure, oidcProblem, platformRefusal } from './oidc/problems';
import { takeTransaction } from './oidc/transaction';
import './oidc/oidc.css';

/**
 * Single sign-on at the platform's OIDC issuer (authorization code + PKCE), above the pasted-token
 * form of the sign-in screen. A failure that came back from the callback (consent refused, a state
 * mismatch, the issuer's or the platform's refusal of the token) arrives in the router's history
 * state and is shown through `onError`, like any other sign-in failure.
 */
export function OidcSignIn({ oidc, onError }: { oidc: NonNullable<ConsoleConfig['oidc']>; onError: (error: unknown) => void }) {
  const [starting, setStarting] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const headingId = useId();
  const host = hostOf(oidc.issuer);

  useEffect(() => {
    const problem = carriedProblem(location.state);
    if (!problem) return;
    onError(problem);
    // Shown once: a reload of the sign-in screen does not bring the old failure back.
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [location.state, location.pathname, location.search, navigate, onError]);

  // Back from the issuer's page, the browser may restore this page as it was left: busy.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setStarting(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  async function start() {
    onError(undefined);
    setStarting(true);
    try {
      const url = await beginSignIn(oidc, `${location.pathname}${location.search}`);
      window.location.assign(url.href);
    } catch (error) {
      onError(oidcProblem(error, oidc.issuer));
      setStarting(false);
    }
  }

  return (
    <>
      <section className="oidc-signin" aria-labelledby={headingId}>
        <h2 id={headingId}>Single sign-on</h2>
        <p>
          Sign in with your organisation&apos;s account at <strong>{host}</strong>; you come back here signed in.
        </p>
        <button type="button" onClick={() => void start()} disabled={starting}>
          Continue with single sign-on
        </button>
        {starting ? <Busy label={`Going to ${host}…`} /> : null}
      </section>
      <p className="oidc-or">Or sign in with an access token:</p>
    </>
  );
}

/**
 * `/console/oidc/callback`, where the issuer sends the browser back: the code is redeemed for an
 * access token, the platform is asked whether it accepts that token (`/me/permissions`, the same
 * check as for a pasted token), and the user lands signed in where the sign-in started. Any failure
 * goes back to the sign-in screen as its message; the code never stays in the address bar.
 */
export function OidcCallback() {
  const { signIn } = useSessionState();
  const navigate = useNavigate();
  const config = useQuery({ queryKey: ['console-config'], queryFn: consoleConfig, staleTime: Infinity });
  const started = useRef(false);
  const settings = config.data?.oidc;
  const settled = config.isSuccess || config.isError;

  useEffect(() => {
    // Once per page load: a code is redeemable once, and React may run an effect twice.
    if (!settled || started.current) return;
    started.current = true;
    const transaction = takeTransaction();
    const returnTo = transaction?.returnTo ?? '/';
    const callback = new URL(window.location.href);
    const finish = async () => {
      if (config.error) throw asProblem(config.error);
      if (!settings) throw oidcFailure('Oidc.NotConfigured', 'Single sign-on is not configured on this platform.');
      const token = await completeSignIn(settings, transaction, callback);
      // The same check as for a pasted token: a token the platform refuses signs nobody in.
      await new ApiClient(token).get('/api/authorization/me/permissions').catch((refusal: unknown) => {
        throw refusal instanceof ApiProblem ? platformRefusal(refusal) : asProblem(refusal);
      });
      return token;
    };
    finish().then(
      (token) => {
        signIn(token);
        void navigate(returnTo, { replace: true });
      },
      (error: unknown) => {
        const problem = oidcProblem(error, settings?.issuer ?? 'the issuer');
        void navigate(returnTo, { replace: true, state: { oidcProblem: carry(problem) } });
      },
    );
  }, [settled, settings, config.error, signIn, navigate]);

  return (
    <main id="main" className="signin">
      <h1>Signing in</h1>
      <Busy label={settings ? `Completing the sign-in at ${hostOf(settings.issuer)}…` : 'Completing the sign-in…'} />
    </main>
  );
}
