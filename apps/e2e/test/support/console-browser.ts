import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { signAccessToken } from '@lp/platform/auth';
import { ensureSigningSecret } from '@lp/platform/runtime';
import { root, start, Started, stop } from './standalone-process';

/** Debian's Chromium (`apt-get install chromium`): the tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the run's screenshots go (one PNG per screen, named by the test). */
export const SCREENSHOT_DIR = join(root, 'tmp', 'console-screenshots');

/**
 * The machine's network is closed: without these Chromium keeps trying to reach Google's hosts.
 * `--no-sandbox`: the suite runs as root, where Chromium's sandbox cannot start.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * The embedded platform as `npm start` runs it (its own data directory), the console built, and one
 * headless Chromium. Each test opens its own browser context (its own sessionStorage), signs in with
 * a token the test mints, and takes screenshots into `tmp/console-screenshots`.
 */
export class ConsoleBrowser {
  private contexts: BrowserContext[] = [];
  /** Uncaught errors of the pages: a test fails when the SPA itself throws. */
  readonly pageErrors: string[] = [];

  private constructor(
    readonly platform: Started,
    private readonly browser: Browser,
    private readonly dataDir: string,
  ) {}

  /** `env` overrides the platform's environment (see `start` in standalone-process). */
  static async start(env: Record<string, string> = {}): Promise<ConsoleBrowser> {
    const build = spawnSync(process.execPath, [join(root, 'tools/build-console.mjs')], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`console build failed:\n${build.stdout}${build.stderr}`);
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`);
    const dataDir = mkdtempSync(join(tmpdir(), 'lp-console-'));
    const platform = await start(dataDir, env);
    try {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      return new ConsoleBrowser(platform, browser, dataDir);
    } catch (error) {
      await stop(platform);
      throw error;
    }
  }

  get baseUrl(): string {
    return this.platform.baseUrl;
  }

  get adminToken(): string {
    return this.platform.adminToken;
  }

  /** A token for any subject of a tenant, signed with the platform's own secret. */
  token(subject: string, tenantId = 'default'): string {
    return signAccessToken(
      { sub: subject, tenantId, ttlSeconds: 3600 },
      { secret: ensureSigningSecret(this.dataDir), issuer: 'legal-platform', audience: 'legal-platform-api' },
    );
  }

  /** The platform's API as a user (test setup and checks; the console itself is driven through the page). */
  async api<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async newPage(): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 860 } });
    this.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
    return page;
  }

  /** Signs in through the sign-in screen by pasting the token, and waits for the signed-in frame. */
  async signIn(token: string, path = '/console/'): Promise<Page> {
    const page = await this.newPage();
    await page.goto(`${this.baseUrl}${path}`);
    await page.getByLabel('Access token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  async screenshot(page: Page, name: string): Promise<string> {
    const file = join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }

  /** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
  async accessibilityViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; nodes: string[] }>> {
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      }));
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await stop(this.platform);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
