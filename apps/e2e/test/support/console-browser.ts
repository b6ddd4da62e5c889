import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { PLATFORM_TENANT } from '@lp/contracts';
import { signAccessToken } from '@lp/platform/auth';
import { ensureSigningSecret } from '@lp/platform/runtime';
import { root, start, Started, stop } from './standalone-process';

/** Debian's Chromium (`apt-get install chromium`): the tests never download a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the run's screenshots go (one PNG per screen, named by the test). */
export const SCREENSHOT_DIR = join(root, 'tmp', 'console-screenshots');

/**
 * Screenshots are for a person looking at the screens, and assert nothing: taken only with
 * `CONSOLE_SCREENSHOTS=1`. Their 55 full-page PNGs cost Chromium about 10 s of CPU (74 s in a full
 * run with them, 64 s without, 2026-11-29), which `npm test` does not spend.
 */
const TAKE_SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';

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

/** The embedded platform as `npm start` runs it, in a data directory of its own (removed by `stop`). */
export class ConsolePlatform {
  private constructor(
    private readonly started: Started,
    private readonly dataDir: string,
  ) {}

  /** `env` overrides the platform's environment (see `start` in standalone-process). */
  static async start(env: Record<string, string> = {}): Promise<ConsolePlatform> {
    const dataDir = mkdtempSync(join(tmpdir(), 'lp-console-'));
    try {
      return new ConsolePlatform(await start(dataDir, env), dataDir);
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  get baseUrl(): string {
    return this.started.baseUrl;
  }

  /** The platform tenant's `admin`, as `npm start` prints it (empty when the platform trusts an issuer instead). */
  get adminToken(): string {
    return this.started.adminToken;
  }

  /** A token for any subject of a tenant, signed with the platform's own secret. */
  token(subject: string, tenantId: string): string {
    return signAccessToken(
      { sub: subject, tenantId, ttlSeconds: 3600 },
      { secret: ensureSigningSecret(this.dataDir), issuer: 'legal-platform', audience: 'legal-platform-api' },
    );
  }

  /** A client-credentials token of an application of a tenant (`sub` = the client id), holding `scopes`. */
  applicationToken(clientId: string, tenantId: string, scopes: string[]): string {
    return signAccessToken(
      { clientId, tenantId, scopes, ttlSeconds: 3600 },
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

  /** Stops the process and removes its data directory; safe to call twice. */
  async stop(): Promise<void> {
    await stop(this.started);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** An answer a test provokes on purpose: its status, and its path (exact, or a pattern). */
export interface ExpectedFailure {
  status: number;
  path: string | RegExp;
}

/**
 * One screen's view of a platform and of the run's Chromium, as one tenant's administrator: the
 * screen's own browser contexts (each page its own sessionStorage, so its own sign-in) and its own
 * problems (a test fails when the SPA throws, logs an error, or a request fails or is refused without
 * the test expecting it), so one screen's failure does not spill into the next. Tokens it mints are for its tenant unless told otherwise.
 */
export class ConsoleBrowser {
  private contexts: BrowserContext[] = [];
  /** What went wrong on this screen's pages since the last `takeProblems` (see `watch`). */
  private readonly problems: string[] = [];
  /** Failed answers the running test provokes on purpose (`expectFailedRequests`). */
  private expected: ExpectedFailure[] = [];

  constructor(
    readonly platform: ConsolePlatform,
    private readonly browser: Browser,
    readonly tenantId: string,
    /** A token of the tenant's administrator. */
    readonly adminToken: string,
    /** Whether closing this view stops its platform (a platform started for this screen alone). */
    private readonly ownsPlatform = false,
  ) {}

  get baseUrl(): string {
    return this.platform.baseUrl;
  }

  /** A token for any subject of this screen's tenant (or of another one). */
  token(subject: string, tenantId = this.tenantId): string {
    return this.platform.token(subject, tenantId);
  }

  /** A token of an application of this screen's tenant. */
  applicationToken(clientId: string, scopes: string[]): string {
    return this.platform.applicationToken(clientId, this.tenantId, scopes);
  }

  api<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    return this.platform.api<T>(token, method, path, body);
  }

  async newPage(): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 860 } });
    this.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    this.watch(page);
    return page;
  }

  /**
   * The answers with these statuses on these paths are what the running test provokes (a refusal
   * it checks the screen shows): not counted as problems until the next `takeProblems`.
   */
  expectFailedRequests(...failures: ExpectedFailure[]): void {
    this.expected.push(...failures);
  }

  /**
   * Every problem of this screen's pages since the last call, then none: uncaught errors, console
   * errors, requests that failed (not those the page abandoned, e.g. a query cancelled by leaving the
   * page) and answers of 400 or more that the test did not expect. Each screen's `afterEach` asserts
   * it is empty, so a screen fails on any of them; the expectations end with the test.
   */
  takeProblems(): string[] {
    this.expected = [];
    return this.problems.splice(0);
  }

  private watch(page: Page): void {
    // The console's own pages only: a sign-in passes through the issuer's pages, which are not ours
    // (the test issuer's login page asks for a web font the sandbox cannot reach).
    const origin = new URL(this.baseUrl).origin;
    const ours = (url: string) => {
      try {
        return new URL(url).origin === origin;
      } catch {
        return false;
      }
    };
    page.on('pageerror', (error) => {
      if (ours(page.url())) this.problems.push(`page error: ${error.message}`);
    });
    page.on('console', (message) => {
      // Chromium logs every 4xx/5xx answer as "Failed to load resource": judged below, by its response.
      if (message.type() !== 'error' || message.text().startsWith('Failed to load resource') || !ours(page.url())) return;
      this.problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'failed';
      if (failure === 'net::ERR_ABORTED' || !ours(request.frame().url())) return;
      this.problems.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
    });
    page.on('response', (response) => {
      const status = response.status();
      if (status < 400 || !ours(response.frame().url())) return;
      const url = new URL(response.url());
      const expected = this.expected.some(
        (failure) => failure.status === status && (typeof failure.path === 'string' ? url.pathname === failure.path : failure.path.test(url.pathname)),
      );
      if (!expected) this.problems.push(`HTTP ${status}: ${response.request().method()} ${url.pathname}${url.search}`);
    });
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

  /** Saves the page as `tmp/console-screenshots/<name>.png` when `CONSOLE_SCREENSHOTS=1`. */
  async screenshot(page: Page, name: string): Promise<void> {
    if (!TAKE_SCREENSHOTS) return;
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
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

  /** Closes this screen's browser contexts (and its own platform, if it has one); safe to call twice. */
  async close(): Promise<void> {
    const contexts = this.contexts.splice(0);
    for (const context of contexts) await context.close().catch(() => undefined);
    if (this.ownsPlatform) await this.platform.stop();
  }
}

/**
 * One platform (`npm start`, embedded) and one headless Chromium for every screen of the console's
 * browser spec: starting them is most of what a screen's suite used to cost. `start` in the spec's
 * `beforeAll`, `close` in its `afterAll` (it closes whatever did start, also after a failure). Each
 * screen asks for its view in its own `beforeAll`: the platform tenant's administrator for what
 * only that tenant may do (jobs, tenants), otherwise a tenant of its own, so screens do not see each
 * other's roles, audit, tasks or subscriptions.
 */
export class ConsoleRun {
  private browser?: Browser;
  private platform?: ConsolePlatform;
  private readonly views: ConsoleBrowser[] = [];

  async start(): Promise<void> {
    const build = spawnSync(process.execPath, [join(root, 'tools/build-console.mjs')], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`console build failed:\n${build.stdout}${build.stderr}`);
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`);
    if (TAKE_SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // Side by side: the platform's start is mostly waiting on its own process.
    const [browser, platform] = await Promise.allSettled([
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true }),
      ConsolePlatform.start(),
    ]);
    if (browser.status === 'fulfilled') this.browser = browser.value;
    if (platform.status === 'fulfilled') this.platform = platform.value;
    // `close` (the spec's afterAll) stops whichever did start.
    for (const outcome of [browser, platform]) if (outcome.status === 'rejected') throw outcome.reason;
  }

  /**
   * A view for one screen. Without `tenant`, as the platform tenant's `admin`; with it, a new tenant
   * created through the operations API (its bootstrap binds `adminSubject` to `tenant-admin`), as
   * that administrator.
   */
  async screen(tenant?: { id: string; adminSubject: string }): Promise<ConsoleBrowser> {
    const { browser, platform } = this.started();
    let view: ConsoleBrowser;
    if (!tenant) {
      view = new ConsoleBrowser(platform, browser, PLATFORM_TENANT, platform.adminToken);
    } else {
      const created = await platform.api(platform.adminToken, 'POST', '/api/operations/tenants', {
        id: tenant.id,
        name: tenant.id,
        adminSubject: tenant.adminSubject,
      });
      if (created.status !== 201) throw new Error(`tenant ${tenant.id} not created: HTTP ${created.status} ${JSON.stringify(created.body)}`);
      view = new ConsoleBrowser(platform, browser, tenant.id, platform.token(tenant.adminSubject, tenant.id));
    }
    this.views.push(view);
    return view;
  }

  /**
   * A platform of the screen's own, started with `env`, driven through the run's Chromium: for a
   * screen that needs the platform configured differently (single sign-on trusts an issuer, and then
   * accepts none of the tokens the other screens mint). Closing the view stops it.
   */
  async screenWithOwnPlatform(env: Record<string, string>): Promise<ConsoleBrowser> {
    const { browser } = this.started();
    const platform = await ConsolePlatform.start(env);
    const view = new ConsoleBrowser(platform, browser, PLATFORM_TENANT, platform.adminToken, true);
    this.views.push(view);
    return view;
  }

  async close(): Promise<void> {
    for (const view of this.views.splice(0)) await view.close().catch(() => undefined);
    await this.browser?.close().catch(() => undefined);
    await this.platform?.stop();
  }

  private started(): { browser: Browser; platform: ConsolePlatform } {
    if (!this.browser || !this.platform) throw new Error('the console run is not started (ConsoleRun.start in the spec’s beforeAll)');
    return { browser: this.browser, platform: this.platform };
  }
}
