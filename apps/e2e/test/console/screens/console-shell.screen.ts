import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

/**
 * The console's frame in headless Chromium against the embedded platform: sign-in by pasted token,
 * the menu from `/me/permissions`, a user without permissions, the API's 403 shown as a message.
 */
export function consoleShellScreen(run: ConsoleRun): void {
  describe('admin console: sign-in and menu', () => {
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      // The platform tenant: its admin's full menu (Jobs included), and creating another tenant, are checked here.
      consoleBrowser = await run.screen();
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    it('is served at /console with its security headers, and every path below it is the app', async () => {
      const response = await fetch(`${consoleBrowser.baseUrl}/console/tasks/anything`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await response.text()).toContain('<div id="root">');
      const post = await fetch(`${consoleBrowser.baseUrl}/console/`, { method: 'POST' });
      expect(post.status).toBe(405);
    });

    it('answers hostile paths and methods under /console (and /docs) without a 5xx and never serves a file outside the build', async () => {
      const paths = [
        '/console/assets/../../../package.json',
        '/console/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
        '/console/assets/..%2f..%2f..%2fpackage.json',
        '/console/assets/%00',
        '/console/assets/missing.js',
        `/console/${'a/'.repeat(500)}`,
        '/console/%E0%A4%A',
        '/console/config.json?x=%ZZ',
        '/console//etc/passwd',
        // The API explorer's assets are served the same way.
        '/docs/assets/..%2f..%2f..%2fpackage.json',
        '/docs/assets/%00',
        '/docs/%E0%A4%A',
      ];
      const statuses: Record<string, number> = {};
      for (const path of paths) {
        const response = await fetch(`${consoleBrowser.baseUrl}${path}`);
        const text = await response.text();
        statuses[path] = response.status;
        expect(text).not.toContain('"name": "legal-platform"');
        expect(text).not.toContain('root:x:0');
      }
      for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        statuses[`${method} /console/x`] = (await fetch(`${consoleBrowser.baseUrl}/console/x`, { method })).status;
      }
      expect(Object.entries(statuses).filter(([, status]) => status >= 500)).toEqual([]);
      expect(statuses['/console/assets/missing.js']).toBe(404);
    });

    it('refuses a wrong token with the API message and signs the admin in with the full menu', async () => {
      const page = await consoleBrowser.newPage();
      await page.goto(`${consoleBrowser.baseUrl}/console/`);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '01-sign-in');
      // The help names the command as code, not in literal backticks; the icon is inline, so no page asks for /favicon.ico.
      expect(await page.locator('#signin-help').textContent()).not.toContain('`');
      expect(await page.locator('#signin-help code').textContent()).toBe('npm start');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      consoleBrowser.expectFailedRequests({ status: 401, path: '/api/authorization/me/permissions' });
      await page.getByLabel('Access token').fill('not-a-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('HTTP 401');

      await page.getByLabel('Access token').fill(consoleBrowser.adminToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const menu = page.getByRole('navigation', { name: 'Console' });
      await menu.getByRole('link', { name: 'Access' }).waitFor();
      expect(await menu.getByRole('link').allTextContents()).toEqual(['Access', 'Why?', 'Audit', 'Jobs', 'Tasks', 'Webhooks']);
      expect(await page.getByTestId('signed-in-as').textContent()).toBe('admin');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '02-home-admin');
    });

    // Issue 31: the Jobs screen keys on /me/permissions; a tenant's administrator no longer holds the fleet's job permissions.
    it('signs a bootstrapped administrator of another tenant in with every screen but Jobs, which answers the API 403 by address', async () => {
      const created = await consoleBrowser.api(consoleBrowser.adminToken, 'POST', '/api/operations/tenants', {
        id: 'initech',
        name: 'Initech',
        adminSubject: 'ian',
      });
      expect(created.status).toBe(201);
      const page = await consoleBrowser.signIn(consoleBrowser.token('ian', 'initech'));
      const menu = page.getByRole('navigation', { name: 'Console' });
      await menu.getByRole('link', { name: 'Access' }).waitFor();
      expect(await menu.getByRole('link').allTextContents()).toEqual(['Access', 'Why?', 'Audit', 'Tasks', 'Webhooks']);
      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/operations\/jobs/ });
      await page.goto(`${consoleBrowser.baseUrl}/console/jobs`);
      const alert = page.getByRole('alert').first();
      await alert.waitFor();
      expect(await alert.textContent()).toContain('HTTP 403');
    });

    it('shows a user without permissions no admin menu, and the API 403 as a message on a screen they open by address', async () => {
      const page = await consoleBrowser.signIn(consoleBrowser.token('nobody'));
      await page.getByRole('heading', { name: 'Nothing to administer' }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link').count()).toBe(0);
      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/authorization\// });
      await page.goto(`${consoleBrowser.baseUrl}/console/access`);
      const alert = page.getByRole('alert').first();
      await alert.waitFor();
      expect(await alert.textContent()).toContain('HTTP 403');
      await consoleBrowser.screenshot(page, '03-no-permissions');
    });
  });
}
