import { ConsoleBrowser } from '../support/console-browser';

/**
 * The console's frame in headless Chromium against the embedded platform: sign-in by pasted token,
 * the menu from `/me/permissions`, a user without permissions, the API's 403 shown as a message.
 */
describe('admin console: sign-in and menu', () => {
  let consoleBrowser: ConsoleBrowser;

  beforeAll(async () => {
    consoleBrowser = await ConsoleBrowser.start();
  }, 120_000);

  afterAll(async () => {
    await consoleBrowser?.close();
  });

  afterEach(() => {
    expect(consoleBrowser.pageErrors).toEqual([]);
  });

  it('is served at /console with its security headers, and every path below it is the app', async () => {
    const response = await fetch(`${consoleBrowser.baseUrl}/console/tasks/anything`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain('<div id="root">');
    const post = await fetch(`${consoleBrowser.baseUrl}/console/`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('refuses a wrong token with the API message and signs the admin in with the full menu', async () => {
    const page = await consoleBrowser.newPage();
    await page.goto(`${consoleBrowser.baseUrl}/console/`);
    expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
    await consoleBrowser.screenshot(page, '01-sign-in');
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

  it('shows a user without permissions no admin menu, and the API 403 as a message on a screen they open by address', async () => {
    const page = await consoleBrowser.signIn(consoleBrowser.token('nobody'));
    await page.getByRole('heading', { name: 'Nothing to administer' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link').count()).toBe(0);
    await page.goto(`${consoleBrowser.baseUrl}/console/access`);
    const alert = page.getByRole('alert').first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('HTTP 403');
    await consoleBrowser.screenshot(page, '03-no-permissions');
  });
});
