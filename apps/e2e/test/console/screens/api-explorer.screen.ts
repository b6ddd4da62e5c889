import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

/**
 * The API explorer (`/docs`, where people paste the admin token) under the platform's security
 * headers, in headless Chromium against `npm start`: Swagger UI must render, authorize and send a
 * request with the policy enforced, and the policy must refuse nothing it loads (a violation would
 * mean the page depends on something the policy forbids, or loads something from elsewhere).
 */
export function apiExplorerScreen(run: ConsoleRun): void {
  describe('API explorer in Chromium under the Content-Security-Policy', () => {
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      // The platform tenant's admin token, as people paste it; the explorer only reads roles.
      consoleBrowser = await run.screen();
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    it('renders every document, takes a pasted token and tries a route, with no policy violation', async () => {
      const page = await consoleBrowser.newPage();
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
      // As a string: the specs compile without the DOM's types.
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
      );
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });

      const response = await page.goto(`${consoleBrowser.baseUrl}/docs`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      // The standalone's picker starts on the first service's document; policy-management has the roles.
      await page.locator('.opblock').first().waitFor();
      await page.locator('select#select').selectOption({ label: 'policy-management' });
      const roles = page
        .locator('.opblock.opblock-get')
        .filter({ has: page.locator('[data-path="/api/authorization/roles"]') })
        .first();
      await roles.waitFor();

      await page.getByRole('button', { name: 'Authorize' }).first().click();
      await page.locator('.auth-container input').fill(consoleBrowser.adminToken);
      await page.getByRole('button', { name: 'Apply credentials' }).click();
      await page.locator('.auth-btn-wrapper .btn-done').click();

      await roles.locator('.opblock-summary').click();
      await roles.getByRole('button', { name: 'Try it out' }).click();
      await roles.getByRole('button', { name: 'Execute' }).click();
      await roles.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
      expect((await roles.locator('.live-responses-table tr.response .response-col_status').first().innerText()).trim()).toBe('200');

      expect(violations).toEqual([]);
      expect(consoleBrowser.takeProblems()).toEqual([]);
    }, 60_000);
  });
}
