import { createHash } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '@lp/platform/testing';
import { verifyPlainSignature, WebhookReceiver } from '@lp/service/webhook-dispatcher/testing';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

interface Subscription {
  id: string;
  callbackUrl: string;
  secretFingerprint: string;
}
interface PageOf<T> {
  items: T[];
  totalCount: number;
}

/** The page's globals the checks read, typed here: the tests' TypeScript has no DOM library. */
interface InPage {
  document: { activeElement: unknown; getElementById(id: string): { textContent: string | null } | null };
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** The text of the elements that describe a field (`aria-describedby`): its hint and its errors. */
function descriptionOf(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id: string) => (globalThis as unknown as InPage).document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** Whether the keyboard focus is on (or inside) what the locator finds. */
function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.contains((globalThis as unknown as InPage).document.activeElement as typeof element));
}

/** A tenant of its own: its subscriptions, deliveries and dead letters are this screen's alone. */
const TENANT = { id: 'console-webhooks', adminSubject: 'admin' };

/**
 * The Webhooks screen in headless Chromium against the embedded platform (`npm start`, development:
 * http: callback URLs and loopback receivers are allowed). A real receiver on 127.0.0.1 answers 200,
 * or 500 for the paths the test marks failing; events come in through `POST /api/webhooks/events`.
 */
export function webhooksScreen(run: ConsoleRun): void {
  describe('admin console: webhooks', () => {
    let consoleBrowser: ConsoleBrowser;
    const receiver = new WebhookReceiver();
    /** Paths the receiver answers 500 for, as the test decides; every other request gets 200. */
    const failing = new Set<string>();
    const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

    const api = <T>(method: string, path: string, body?: unknown) => consoleBrowser.api<T>(consoleBrowser.adminToken, method, path, body);
    const noViolations = async (page: Page) => expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);

    beforeAll(async () => {
      await receiver.start();
      receiver.respondAlways((request) =>
        failing.has(request.path)
          ? { status: 500, body: 'receiver down for maintenance' }
          : { status: 200, body: '{"received":true}', headers: { 'content-type': 'application/json' } },
      );
      consoleBrowser = await run.screen(TENANT);
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
      await receiver.stop();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    it('creates a subscription (errors beside the fields), shows its secret once, pings it and logs an event’s delivery', async () => {
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, '/console/webhooks');
      await page.getByText('No subscription yet').waitFor();
      await noViolations(page);
      await consoleBrowser.screenshot(page, '01-webhooks-empty');

      // The API judges the form; its messages stand beside their fields.
      await page.getByRole('button', { name: 'Add subscription' }).click();
      await page.getByLabel('Callback URL').fill('ftp://127.0.0.1/orders');
      await page.getByLabel('Event types').fill('ticket.*\npayroll.*');
      await page.getByLabel('Max retries').fill('30');
      consoleBrowser.expectFailedRequests({ status: 400, path: '/api/webhooks/subscriptions' });
      await page.getByRole('button', { name: 'Create subscription' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('HTTP 400');
      expect(await descriptionOf(page.getByLabel('Callback URL'))).toContain('callbackUrl must use http: or https:');
      expect(await descriptionOf(page.getByLabel('Event types'))).toMatch(/Pattern 2 \(payroll\.\*\): .*unknown module "payroll"/);
      expect(await descriptionOf(page.getByLabel('Max retries'))).toContain('0..25');
      await noViolations(page);
      await consoleBrowser.screenshot(page, '02-webhooks-create-errors');

      await page.getByLabel('Callback URL').fill(receiver.url('/orders'));
      await page.getByLabel('Event types').fill('ticket.*\n*.created');
      await page.getByLabel('Description').fill('Order sync');
      await page.getByLabel('Max retries').fill('2');
      await page.getByRole('button', { name: 'Create subscription' }).click();
      await page.getByRole('heading', { name: 'Subscription created' }).waitFor();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(await page.getByText('Copy it now: you will not see it again.').isVisible()).toBe(true);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleBrowser.baseUrl });
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText())).toBe(secret);
      await noViolations(page);
      await consoleBrowser.screenshot(page, '03-webhooks-secret-once');

      // Once left, the secret is nowhere: the subscription shows only its fingerprint.
      await page.getByRole('link', { name: 'Open the subscription' }).click();
      await page.getByRole('heading', { name: receiver.url('/orders') }).waitFor();
      expect(await page.content()).not.toContain(secret);
      expect(await page.locator('.wh-fingerprint').first().textContent()).toBe(createHash('sha256').update(secret).digest('hex'));

      await page.getByRole('button', { name: 'Send ping' }).click();
      const ping = page.getByRole('status').filter({ hasText: 'Ping succeeded' });
      await ping.waitFor();
      expect(await ping.textContent()).toContain('HTTP 200');
      const [pinged] = requestsTo('/orders');
      expect(pinged?.headers['x-webhook-event']).toBe('webhook.ping');
      expect(verifyPlainSignature(pinged!, secret)).toBe(true); // the secret shown is the one that signs

      const subscriptionId = page.url().split('/').pop() as string;
      const ingested = await api<{ deliveriesCreated: number }>('POST', '/api/webhooks/events', {
        eventType: 'ticket.created',
        payload: { ticketId: 'T-4711' },
      });
      expect(ingested).toMatchObject({ status: 202, body: { deliveriesCreated: 1 } });
      const logged = await eventually(
        () => api<PageOf<unknown>>('GET', `/api/webhooks/subscriptions/${subscriptionId}/deliveries`),
        (answer) => answer.body.totalCount >= 2,
        10_000,
      );
      expect(logged.body.totalCount).toBe(2);

      await page.getByRole('button', { name: 'Refresh' }).click();
      const log = page.getByRole('table', { name: /Delivery attempts/ });
      const event = log.locator('tbody', { hasText: 'ticket.created' });
      await event.getByRole('rowheader').getByText('Delivered', { exact: true }).waitFor();
      expect(await event.getByRole('rowheader').textContent()).toContain('1 attempt');
      const attempt = event.getByRole('row').nth(1);
      expect(await attempt.getByRole('cell').allTextContents()).toEqual([
        '#1',
        expect.any(String),
        'Succeeded',
        'HTTP 200',
        expect.stringMatching(/^\d+ ms$/),
        '—',
        '{"received":true}',
      ]);
      expect(await log.locator('tbody', { hasText: 'webhook.ping' }).getByRole('rowheader').textContent()).toContain('(ping)');
      expect(verifyPlainSignature(requestsTo('/orders')[1]!, secret)).toBe(true);
      await noViolations(page);
      await consoleBrowser.screenshot(page, '04-webhooks-delivery-log');
    });

    it('dead-letters a delivery its receiver failed, replays it from the Dead letters tab, and shows the 409 of a second replay', async () => {
      failing.add('/billing');
      const created = await api<Subscription>('POST', '/api/webhooks/subscriptions', {
        callbackUrl: receiver.url('/billing'),
        eventTypes: ['billing.*'],
        description: 'Billing export',
        maxRetries: 3,
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, `/console/webhooks/subscriptions/${id}`);

      // No retries: a failed attempt kills the delivery at once (PATCH through the settings form).
      await page.getByRole('button', { name: 'Edit settings' }).click();
      await page.getByLabel('Max retries').fill('0');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      expect(await page.locator('.wh-facts dd').nth(2).textContent()).toBe('0');

      const ingested = await api<{ deliveriesCreated: number }>('POST', '/api/webhooks/events', {
        eventType: 'billing.invoice.paid',
        payload: { invoice: 'INV-7' },
      });
      expect(ingested).toMatchObject({ status: 202, body: { deliveriesCreated: 1 } });
      await eventually(
        () => api<PageOf<unknown>>('GET', `/api/webhooks/dead-letters?subscriptionId=${id}`),
        (answer) => answer.body.totalCount === 1,
        10_000,
      );

      await page.getByRole('button', { name: 'Refresh' }).click();
      const event = page.getByRole('table', { name: /Delivery attempts/ }).locator('tbody', { hasText: 'billing.invoice.paid' });
      await event.getByRole('rowheader').getByText('Dead', { exact: true }).waitFor();
      const attempt = await event.getByRole('row').nth(1).getByRole('cell').allTextContents();
      expect(attempt).toEqual([
        '#1',
        expect.any(String),
        'Failed',
        'HTTP 500',
        expect.stringMatching(/ms$/),
        expect.any(String),
        'receiver down for maintenance',
      ]);
      await noViolations(page);
      await consoleBrowser.screenshot(page, '05-webhooks-delivery-dead');

      // The receiver is back; the dead letter is replayed from its tab.
      failing.delete('/billing');
      await page.getByRole('tab', { name: 'Dead letters' }).click();
      // The dead-letters table's row, not the delivery log's row still on screen while the tab switches.
      const row = page
        .getByRole('table', { name: /Dead letters/ })
        .getByRole('row')
        .filter({ hasText: 'billing.invoice.paid' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Retries used up');
      expect(await row.textContent()).toContain('HTTP 500');
      await noViolations(page);
      await consoleBrowser.screenshot(page, '06-webhooks-dead-letters');
      await row.getByRole('button', { name: /^Replay delivery/ }).click();
      await page.getByRole('status').filter({ hasText: 'Replayed.' }).waitFor();

      await page.getByRole('link', { name: 'Follow it' }).click();
      await page.getByTestId('delivery-now').getByText('Delivered').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('delivery-now').textContent()).toContain('HTTP 200');
      expect(requestsTo('/billing').map((request) => request.headers['x-webhook-delivery-id'])).toEqual([
        expect.any(String),
        requestsTo('/billing')[0]?.headers['x-webhook-delivery-id'], // the same delivery, sent again
      ]);
      await noViolations(page);
      await consoleBrowser.screenshot(page, '07-webhooks-replayed');

      consoleBrowser.expectFailedRequests({ status: 409, path: /^\/api\/webhooks\/dead-letters\/[^/]+\/replay$/ });
      await page.getByRole('button', { name: 'Replay' }).click();
      const refused = page.getByRole('alert');
      await refused.waitFor();
      expect(await refused.textContent()).toContain('This dead letter was replayed already');
      expect(await refused.textContent()).toContain('Webhook.DeadLetter.AlreadyReplayed · HTTP 409');
      await noViolations(page);
      await consoleBrowser.screenshot(page, '08-webhooks-replay-409');
    });

    it('deactivates and filters, rotates the secret (shown once) and deletes after a confirmation', async () => {
      const created = await api<Subscription>('POST', '/api/webhooks/subscriptions', { callbackUrl: receiver.url('/crm'), eventTypes: ['case.*'] });
      expect(created.status).toBe(201);
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, `/console/webhooks/subscriptions/${created.body.id}`);
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('button', { name: 'Activate' }).waitFor();

      await page.getByRole('tab', { name: 'Subscriptions' }).click();
      await page.getByLabel('State').selectOption('false');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await eventually(
        () =>
          page
            .getByRole('table', { name: /Subscriptions/ })
            .getByRole('link')
            .allTextContents(),
        (links) => links.length === 1,
        5_000,
      );
      expect(
        await page
          .getByRole('table', { name: /Subscriptions/ })
          .getByRole('link')
          .allTextContents(),
      ).toEqual([receiver.url('/crm')]);
      await page.getByLabel('State').selectOption('');
      // The labels stand on one line, whatever a field has under it (a hint, now an error too).
      const filters = page.getByRole('form', { name: 'Filter subscriptions' });
      const labelTops = async () =>
        Promise.all(['State', 'Receives event type'].map(async (text) => (await filters.locator('label', { hasText: text }).boundingBox())?.y));
      const [stateTop, typeTop] = await labelTops();
      expect(stateTop).toBeDefined();
      expect(typeTop).toBe(stateTop);
      await page.getByLabel('Receives event type').fill('case');
      consoleBrowser.expectFailedRequests({ status: 400, path: '/api/webhooks/subscriptions' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('form', { name: 'Filter subscriptions' }).getByText('eventType must be a concrete event type').waitFor();
      expect(new Set(await labelTops()).size).toBe(1);
      expect(await descriptionOf(page.getByLabel('Receives event type'))).toContain('eventType must be a concrete event type');
      await page.getByLabel('Receives event type').fill('case.filed');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      // `case.*` and the first test's `*.created` would receive case.filed; `billing.*` would not.
      const receiving = await eventually(
        () =>
          page
            .getByRole('table', { name: /Subscriptions/ })
            .getByRole('link')
            .allTextContents(),
        (links) => links.includes(receiver.url('/crm')),
        5_000,
      );
      expect(receiving).not.toContain(receiver.url('/billing'));
      await consoleBrowser.screenshot(page, '09-webhooks-filtered');

      await page.getByRole('link', { name: receiver.url('/crm') }).click();
      await page.getByRole('button', { name: 'Activate' }).click();
      await page.getByRole('button', { name: 'Deactivate' }).waitFor();

      // The rotate dialog takes the focus and gives it back.
      const rotate = page.getByRole('button', { name: 'Rotate secret' });
      await rotate.click();
      const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret' });
      await dialog.waitFor();
      expect(await hasFocus(dialog)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await hasFocus(rotate)).toBe(true);
      await rotate.click();
      await dialog.getByLabel('Overlap in seconds').fill('3600');
      await noViolations(page);
      await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
      await page.getByRole('heading', { name: 'The new signing secret' }).waitFor();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      const fingerprints = await page.locator('.wh-fingerprint').allTextContents();
      expect(fingerprints).toEqual([createHash('sha256').update(secret).digest('hex'), created.body.secretFingerprint]);
      await noViolations(page);
      await consoleBrowser.screenshot(page, '10-webhooks-rotated');
      await page.getByRole('button', { name: 'I have stored it: hide the secret' }).click();
      expect(await page.content()).not.toContain(secret);

      await page.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this subscription?' });
      await confirm.waitFor();
      await consoleBrowser.screenshot(page, '11-webhooks-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete subscription' }).click();
      await page.getByText('was deleted; its pending deliveries are cancelled').waitFor();
      await page.getByRole('table', { name: /Subscriptions/ }).waitFor();
      expect(
        await page
          .getByRole('table', { name: /Subscriptions/ })
          .getByRole('link')
          .allTextContents(),
      ).not.toContain(receiver.url('/crm'));
      expect((await api('GET', `/api/webhooks/subscriptions/${created.body.id}`)).status).toBe(404);
    });

    it('shows a viewer the subscriptions and their log without any action button, and the API 403 on dead letters opened by address', async () => {
      const role = await api<{ id: string }>('POST', '/api/authorization/roles', { name: 'webhook-viewer' });
      expect(role.status).toBe(201);
      for (const permissionCode of ['webhooks.subscription.view', 'webhooks.delivery.view']) {
        expect((await api('POST', `/api/authorization/roles/${role.body.id}/permissions`, { permissionCode })).status).toBe(204);
      }
      expect((await api('POST', `/api/authorization/users/vera/roles/${role.body.id}`)).status).toBe(204);
      const watched = await api<Subscription>('POST', '/api/webhooks/subscriptions', { callbackUrl: receiver.url('/audit'), eventTypes: ['file.*'] });
      expect((await api('POST', `/api/webhooks/subscriptions/${watched.body.id}/ping`)).status).toBe(200);
      const token = consoleBrowser.token('vera');
      const held = await eventually(
        () => consoleBrowser.api<{ codes: string[] }>(token, 'GET', '/api/authorization/me/permissions'),
        (answer) => answer.body.codes?.includes('webhooks.delivery.view') === true,
        10_000,
      );
      expect(held.body.codes.filter((code) => code.startsWith('webhooks.')).sort()).toEqual(['webhooks.delivery.view', 'webhooks.subscription.view']);

      const page = await consoleBrowser.signIn(token, '/console/webhooks');
      const list = page.getByRole('table', { name: /Subscriptions/ });
      await list.waitFor();
      expect(await page.getByRole('tab').allTextContents()).toEqual(['Subscriptions']);
      expect(await page.getByRole('button', { name: 'Add subscription' }).count()).toBe(0);
      await list.getByRole('link', { name: receiver.url('/audit') }).click();
      await page.getByRole('table', { name: /Delivery attempts/ }).waitFor();
      for (const name of ['Send ping', 'Deactivate', 'Rotate secret', 'Delete', 'Edit settings']) {
        expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
      }
      await noViolations(page);
      await consoleBrowser.screenshot(page, '12-webhooks-viewer');

      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/webhooks\/dead-letters/ });
      await page.goto(`${consoleBrowser.baseUrl}/console/webhooks/dead-letters`);
      const denied = page.getByRole('alert');
      await denied.waitFor();
      expect(await denied.textContent()).toContain('HTTP 403');
    });
  });
}
