import type { Page } from 'playwright-core';
import { CONSOLE_OIDC_CALLBACK_PATH } from '@lp/platform/runtime';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';
import { CONSOLE_CLIENT_ID, NO_TENANT_ACCOUNT, PLATFORM_AUDIENCE, TestIssuer } from '../../support/oidc-issuer';

/**
 * The console's single sign-on against a real OpenID Provider (oidc-provider, in this process): the
 * platform trusts the issuer (`JWT_JWKS_URI`, `JWT_ISSUER`) and names the console's public client
 * (`CONSOLE_OIDC_CLIENT_ID`); Chromium goes through the issuer's login and consent pages and back,
 * and every way it can fail ends on the sign-in screen with its message.
 */
export function oidcScreen(run: ConsoleRun): void {
  describe('admin console: single sign-on (OIDC authorization code + PKCE)', () => {
    let issuer: TestIssuer;
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      issuer = await TestIssuer.listen();
      // A platform of its own: trusting the issuer's JWKS, it accepts none of the tokens the other
      // screens mint with the platform's secret (and prints no admin token). Chromium is the run's.
      consoleBrowser = await run.screenWithOwnPlatform({ JWT_JWKS_URI: issuer.jwksUri, JWT_ISSUER: issuer.url, CONSOLE_OIDC_CLIENT_ID: CONSOLE_CLIENT_ID });
      await issuer.serve({ consoleRedirectUri: `${consoleBrowser.baseUrl}${CONSOLE_OIDC_CALLBACK_PATH}` });
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
      await issuer?.close();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
      expect(issuer.serverErrors).toEqual([]);
    });

    /** From the console's sign-in screen to the issuer's login page; resolves to the `state` sent. */
    async function toIssuerLogin(page: Page): Promise<string> {
      const authorization = page.waitForRequest((request) => request.url().startsWith(`${issuer.url}/auth?`));
      await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
      const sent = new URL((await authorization).url());
      await page.waitForURL(`${issuer.url}/interaction/**`);
      expect(sent.searchParams.get('client_id')).toBe(CONSOLE_CLIENT_ID);
      expect(sent.searchParams.get('redirect_uri')).toBe(`${consoleBrowser.baseUrl}${CONSOLE_OIDC_CALLBACK_PATH}`);
      expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
      return sent.searchParams.get('state') ?? '';
    }

    /** The issuer's development login page (any login, any password), up to its consent page. */
    async function logInAtIssuer(page: Page, login: string): Promise<void> {
      await page.getByPlaceholder('Enter any login').fill(login);
      await page.getByPlaceholder('and password').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).waitFor();
    }

    /** The page's sessionStorage item (the spec has no DOM types: the expression runs in the page). */
    function sessionItem(page: Page, key: string): Promise<string | null> {
      return page.evaluate(`sessionStorage.getItem(${JSON.stringify(key)})`);
    }

    async function signInScreenAlert(page: Page): Promise<string> {
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      return (await alert.textContent()) ?? '';
    }

    it('tells the SPA the issuer and the public client, and lets it reach that issuer only', async () => {
      const response = await fetch(`${consoleBrowser.baseUrl}/console/config.json`);
      expect(await response.json()).toEqual({
        oidc: { issuer: issuer.url, clientId: CONSOLE_CLIENT_ID, scope: 'openid profile', audience: PLATFORM_AUDIENCE },
      });
      expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${issuer.url};`);
    });

    it('signs the admin in through the issuer login and consent, back on the screen the sign-in started from', async () => {
      const page = await consoleBrowser.newPage();
      await page.goto(`${consoleBrowser.baseUrl}/console/jobs`);
      await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '01-oidc-sign-in');

      await toIssuerLogin(page);
      await consoleBrowser.screenshot(page, '02-oidc-issuer-login');
      await logInAtIssuer(page, 'admin');
      await consoleBrowser.screenshot(page, '03-oidc-issuer-consent');
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      expect(page.url()).toBe(`${consoleBrowser.baseUrl}/console/jobs`);
      expect(await page.getByTestId('signed-in-as').textContent()).toBe('admin');
      expect(await page.getByTestId('tenant').textContent()).toBe('default');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Access' }).waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '04-oidc-signed-in');

      // The session holds the issuer's access token (verified by the platform against the issuer's
      // JWKS); the sign-in's state and verifier are gone.
      expect(await sessionItem(page, 'lp.console.oidc')).toBeNull();
      const token = (await sessionItem(page, 'lp.console.token')) ?? '';
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: issuer.url, aud: PLATFORM_AUDIENCE, sub: 'admin', tenant_id: 'default', client_id: CONSOLE_CLIENT_ID });
    });

    it('shows a refused consent on the sign-in screen and signs nobody in', async () => {
      const page = await consoleBrowser.newPage();
      await page.goto(`${consoleBrowser.baseUrl}/console/`);
      await toIssuerLogin(page);
      await logInAtIssuer(page, 'admin');
      await page.getByRole('link', { name: '[ Cancel ]' }).click();

      const alert = await signInScreenAlert(page);
      expect(alert).toContain('was cancelled or the console was not allowed: End-User aborted interaction');
      expect(alert).toContain('Oidc.access_denied');
      expect(new URL(page.url()).search).toBe('');
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '05-oidc-consent-refused');
    });

    it('refuses an answer with a state this tab did not send, and shows the issuer refusing an unknown code', async () => {
      const page = await consoleBrowser.newPage();
      await page.goto(`${consoleBrowser.baseUrl}/console/`);
      await toIssuerLogin(page);
      const callback = `${consoleBrowser.baseUrl}${CONSOLE_OIDC_CALLBACK_PATH}`;
      const iss = encodeURIComponent(issuer.url);
      await page.goto(`${callback}?code=forged-code&state=forged-state&iss=${iss}`);
      const mismatch = await signInScreenAlert(page);
      expect(mismatch).toContain('does not belong to the sign-in this tab started (state mismatch)');
      expect(mismatch).toContain('Oidc.StateMismatch');
      await consoleBrowser.screenshot(page, '06-oidc-state-mismatch');

      // Its own state, but a code the issuer never issued: the token endpoint's invalid_grant.
      consoleBrowser.expectFailedRequests({ status: 400, path: '/token' });
      const state = await toIssuerLogin(page);
      await page.goto(`${callback}?code=unknown-code&state=${encodeURIComponent(state)}&iss=${iss}`);
      const refused = await signInScreenAlert(page);
      expect(refused).toContain('did not issue a token for this sign-in (invalid_grant)');
      expect(refused).toContain('HTTP 400');
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      await consoleBrowser.screenshot(page, '07-oidc-token-refused');
    });

    it("shows the platform's refusal of an issuer token that names no tenant", async () => {
      const page = await consoleBrowser.newPage();
      await page.goto(`${consoleBrowser.baseUrl}/console/`);
      await toIssuerLogin(page);
      await logInAtIssuer(page, NO_TENANT_ACCOUNT);
      consoleBrowser.expectFailedRequests({ status: 401, path: '/api/authorization/me/permissions' });
      await page.getByRole('button', { name: 'Continue' }).click();

      const alert = await signInScreenAlert(page);
      expect(alert).toContain('The platform does not accept the token the identity provider issued: The token does not name a tenant (tenant_id claim).');
      expect(alert).toContain('HTTP 401');
      expect(await sessionItem(page, 'lp.console.token')).toBeNull();
      await consoleBrowser.screenshot(page, '08-oidc-platform-refused');
    });
  });
}
