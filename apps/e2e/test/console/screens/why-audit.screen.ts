import type { Locator } from 'playwright-core';
import { eventually } from '@lp/platform/testing';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

const BASE = '/api/authorization';

/**
 * A tenant of its own: bob's decisions, the replay and the change log are this screen's alone. Its
 * administrator is not called `admin`: the platform's `admin` made the bootstrap's own assignment
 * (`user-role.assigned`), so the change log filtered by this actor shows only the assignment below.
 */
const TENANT = { id: 'console-why', adminSubject: 'ada' };

/** Waits until the element's whole text is `text` (or contains it, with `partial`). */
function showing(locator: Locator, text: string, partial = false): Promise<void> {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return locator
    .filter({ hasText: new RegExp(partial ? escaped : `^\\s*${escaped}\\s*$`) })
    .first()
    .waitFor();
}

interface Role {
  id: string;
  name: string;
}

/**
 * The Why? and Audit screens against the embedded platform: the simulator answers "may bob View
 * authorization/role" with every evaluator's verdict, the what-if overlay shows the flip before
 * anything is saved, the real assignment makes the saved answer flip; the audit lists bob's real
 * decisions filtered and paged, and a decision opens its question in Why?; the signed-in admin's own
 * live decision is explained with every evaluator's inputs.
 */
export function whyAuditScreen(run: ConsoleRun): void {
  describe('admin console: Why? and Audit', () => {
    let consoleBrowser: ConsoleBrowser;
    let admin: string;
    let role: Role;

    beforeAll(async () => {
      consoleBrowser = await run.screen(TENANT);
      admin = consoleBrowser.adminToken;
      const created = await consoleBrowser.api<Role>(admin, 'POST', `${BASE}/roles`, { name: 'case-viewer' });
      expect(created.status).toBe(201);
      role = created.body;
      const granted = await consoleBrowser.api(admin, 'POST', `${BASE}/roles/${role.id}/permissions`, { permissionCode: 'authorization.role.view' });
      expect(granted.status).toBe(204);
      // bob's own (refused) calls: the audit has something to list about him, more than one page of it.
      const bob = consoleBrowser.token('bob');
      expect((await consoleBrowser.api(bob, 'GET', `${BASE}/roles`)).status).toBe(403);
      const items = Array.from({ length: 12 }, (_, i) => ({
        resource: { module: 'authorization', resourceType: 'role', resourceId: `r-${i}` },
        action: 'View',
      }));
      expect((await consoleBrowser.api(bob, 'POST', `${BASE}/decisions/batch`, { items })).status).toBe(200);
      // An application of the tenant (decided by its scope): the audit lists it with the services, not with the people.
      const app = consoleBrowser.applicationToken('reports-app', ['authorization.role.view']);
      expect((await consoleBrowser.api(app, 'GET', `${BASE}/roles`)).status).toBe(200);
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    const bobAudited = async () =>
      (await consoleBrowser.api<{ totalCount: number }>(admin, 'GET', `${BASE}/permission-audit/decisions?subject=bob&pageSize=1`)).body.totalCount;

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    it('the simulator flips from NoMatchingPolicy to Permit: first under a what-if overlay, then for real', async () => {
      const page = await consoleBrowser.signIn(admin, '/console/why');
      await page.getByRole('heading', { name: 'Why?', level: 1 }).waitFor();

      // A malformed question: the API's message stands next to its field.
      consoleBrowser.expectFailedRequests({ status: 400, path: '/api/authorization/permission-simulation/evaluate' });
      await page.getByLabel('Subject', { exact: true }).fill('bob');
      await page.getByLabel('Module').fill('Not A Module');
      await page.getByLabel('Resource type').fill('role');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.getByText('module must be a lower-case code like "cases"').first().waitFor();

      await page.getByLabel('Module').fill('authorization');
      await page.getByLabel('Action').selectOption('View');
      await page.getByRole('button', { name: 'Ask' }).click();
      const saved = page.getByTestId('saved');
      await showing(saved.getByTestId('saved-outcome'), 'NoMatchingPolicy');
      const rbac = saved.getByRole('row', { name: /^RBAC/ });
      expect(await rbac.getByRole('cell').first().textContent()).toBe('Neutral');
      expect(await saved.getByRole('rowheader').allTextContents()).toEqual(expect.arrayContaining(['RBAC', 'ABAC', 'ReBAC', 'Feature']));
      expect(new URL(page.url()).search).toBe('?subject=bob&action=View&module=authorization&resourceType=role');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '20-why-no-matching-policy');

      // What if bob had case-viewer? Evaluated beside the saved answer; nothing is saved.
      await page.getByLabel('Change', { exact: true }).selectOption({ label: 'Assign a role to a subject' });
      expect(await page.getByLabel('Subject of the change').inputValue()).toBe('bob');
      // A typo in the overlay is the API's 400, shown beside the field, not a silent "no effect".
      consoleBrowser.expectFailedRequests({ status: 400, path: '/api/authorization/permission-simulation/evaluate' });
      await page.getByLabel('Role name').fill('case-veiwer');
      await page.getByRole('button', { name: 'Add change' }).click();
      await showing(page.locator('.field-invalid', { has: page.getByLabel('Role name') }), 'unknown role(s) in this tenant: case-veiwer', true);
      await page.getByRole('button', { name: 'Remove: Assign role case-veiwer to bob' }).click();
      await page.getByLabel('Role name').fill('case-viewer');
      await page.getByRole('button', { name: 'Add change' }).click();
      const withChanges = page.getByTestId('with-changes');
      await showing(withChanges.getByTestId('with-changes-outcome'), 'Permit');
      expect(await withChanges.getByRole('row', { name: /^RBAC/ }).getByRole('cell').first().textContent()).toBe('Allow');
      expect(await saved.getByTestId('saved-outcome').textContent()).toBe('NoMatchingPolicy');
      expect(await page.getByTestId('flip-summary').textContent()).toContain('turn NoMatchingPolicy into Permit');
      expect(new URL(page.url()).searchParams.get('overlay')).toBe(JSON.stringify({ addRoleBindings: [{ subject: 'bob', roleName: 'case-viewer' }] }));
      // The same changes replayed over the tenant's recent decisions: bob's 13 refusals would flip
      // (once the background audit writer has them all).
      await eventually(
        () => bobAudited(),
        (count) => count >= 13,
        10_000,
      );
      await page.getByRole('button', { name: 'Replay with the proposed changes' }).click();
      const replayed = page.getByRole('status').filter({ hasText: 'would flip' });
      await replayed.waitFor();
      expect(Number(/(\d+) would flip/.exec((await replayed.textContent()) ?? '')?.[1])).toBe(13);
      const flips = page.getByRole('table', { name: 'Decisions the proposed changes would flip' });
      expect(new Set(await flips.locator('tbody > tr > td:nth-child(2)').allTextContents())).toEqual(new Set(['bob']));
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '21-why-what-if');
      // The overlay wrote nothing: bob is still refused for real.
      expect((await consoleBrowser.api(consoleBrowser.token('bob'), 'GET', `${BASE}/roles`)).status).toBe(403);

      // Now for real, through the API; asked again, the saved policy permits.
      expect((await consoleBrowser.api(admin, 'POST', `${BASE}/users/bob/roles/${role.id}`)).status).toBe(204);
      await page.getByRole('button', { name: 'Clear all changes' }).click();
      await withChanges.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Ask' }).click();
      await showing(saved.getByTestId('saved-outcome'), 'Permit');
      expect(await saved.getByRole('row', { name: /^RBAC/ }).textContent()).toContain('case-viewer');
      await consoleBrowser.screenshot(page, '22-why-permit');
      expect((await consoleBrowser.api(consoleBrowser.token('bob'), 'GET', `${BASE}/roles`)).status).toBe(200);
    });

    it("lists bob's decisions filtered and paged, opens one's question in Why?, and shows the change log", async () => {
      // The audit is written in the background: wait until bob's 15 decisions are all in (two refused calls, 12 batch questions, one permitted call).
      const audited = await eventually(
        () => bobAudited(),
        (count) => count >= 15,
        10_000,
      );
      expect(audited).toBe(15);

      const page = await consoleBrowser.signIn(admin, '/console/audit');
      await page.getByRole('tab', { name: 'Decisions', selected: true }).waitFor();
      await page.getByLabel('Subject').fill('bob');
      await page.getByLabel('Rows per page').selectOption('10');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const pager = page.getByRole('navigation', { name: 'Decisions pages' });
      await showing(pager, 'Page 1 of 2 · 15 in all', true);
      const rows = page.getByTestId('decision-row');
      expect(await rows.count()).toBe(10);
      expect(new Set(await rows.locator(':scope > td:nth-child(2)').allTextContents())).toEqual(new Set(['bob']));
      // newest first: bob's permitted call after the assignment
      await showing(rows.first().locator(':scope > td:nth-child(5) > span').first(), 'Permit');
      await rows.first().getByText('Recorded verdicts').click();
      await showing(rows.first().getByRole('row', { name: /^RBAC/ }), 'Allow', true);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '23-audit-decisions');

      await pager.getByRole('button', { name: 'Next' }).click();
      await showing(pager, 'Page 2 of 2', true);
      expect(await rows.count()).toBe(5);
      expect(new URL(page.url()).searchParams.get('page')).toBe('1');
      await showing(rows.last().locator(':scope > td:nth-child(5) > span').first(), 'NoMatchingPolicy');

      // The oldest decision (refused then) asked again in Why?: permitted now that bob holds case-viewer.
      await rows
        .last()
        .getByRole('link', { name: /^Explain now/ })
        .click();
      await page.getByRole('heading', { name: 'Why?', level: 1 }).waitFor();
      const asked = new URL(page.url()).searchParams;
      expect([...asked.keys()]).toEqual(['subject', 'action', 'module', 'resourceType', 'decision']);
      expect(new URL(page.url()).search).toMatch(/^\?subject=bob&action=View&module=authorization&resourceType=role&decision=[0-9a-f-]{36}$/);
      // Today's answer beside the record (GET /permission-audit/decisions/{id}): refused then, permitted now.
      await showing(page.getByTestId('saved-outcome'), 'Permit');
      await showing(page.getByTestId('recorded-outcome'), 'NoMatchingPolicy');
      expect(await page.getByTestId('recorded').textContent()).toContain('nothing applied');
      expect(await page.getByLabel('Subject', { exact: true }).inputValue()).toBe('bob');

      // The policy change log: the assignment, with who made it.
      await page.goBack();
      await page.getByRole('tab', { name: 'Policy changes' }).click();
      await page.getByLabel('Change', { exact: true }).fill('user-role.assigned');
      await page.getByLabel('Actor').fill(TENANT.adminSubject);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const change = page.getByTestId('change-row').first();
      await change.getByText('Show').click();
      await showing(change, 'bob', true);
      expect(await change.locator(':scope > td:nth-child(2)').textContent()).toBe(TENANT.adminSubject);
      await showing(page.getByRole('navigation', { name: 'Policy changes pages' }), '1 in all', true);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '24-audit-changes');
    });

    it("shows people's decisions by default and the services' with the switch", async () => {
      await eventually(
        async () => (await consoleBrowser.api<{ totalCount: number }>(admin, 'GET', `${BASE}/permission-audit/decisions?clientId=reports-app`)).body.totalCount,
        (count) => count >= 1,
        10_000,
      );
      const page = await consoleBrowser.signIn(admin, '/console/audit');
      const rows = page.getByTestId('decision-row');
      await rows.first().waitFor();
      expect(await page.getByRole('radio', { name: 'People' }).isChecked()).toBe(true);
      expect(await rows.locator(':scope > td:nth-child(2)').allTextContents()).not.toContain('reports-app (application reports-app)');
      // The switch is held in the URL: the radio shows checked once the page has moved there, not at
      // the click (Playwright's check() asserts the state at once, which a busy machine outruns).
      await page.getByRole('radio', { name: 'Services and applications' }).click();
      await showing(rows.first().locator(':scope > td:nth-child(2)'), 'reports-app (application reports-app)');
      expect(await page.getByRole('radio', { name: 'Services and applications' }).isChecked()).toBe(true);
      expect(new Set(await rows.locator(':scope > td:nth-child(2)').allTextContents())).toEqual(new Set(['reports-app (application reports-app)']));
      expect(new URL(page.url()).searchParams.get('callerKind')).toBe('application');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '27-audit-services');

      // An application's decision explained too: asked for the application, with the scope AppScope allowed then.
      await rows
        .first()
        .getByRole('link', { name: /^Explain now/ })
        .click();
      await page.getByRole('heading', { name: 'Why?', level: 1 }).waitFor();
      const asked = new URL(page.url()).searchParams;
      expect(asked.get('callerKind')).toBe('application');
      expect(asked.get('subject')).toBe('reports-app');
      expect(asked.get('scopes')).toBe('authorization.role.view');
      expect(await page.getByLabel('Caller', { exact: true }).inputValue()).toBe('application');
      await showing(page.getByTestId('saved-outcome'), 'Permit');
      await showing(page.getByTestId('recorded-outcome'), 'Permit');
      await showing(page.getByTestId('saved').getByRole('row', { name: /^AppScope/ }), 'Allow', true);
      // The same application without that scope is refused.
      await page.getByLabel('Scopes', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Ask' }).click();
      await showing(page.getByTestId('saved-outcome'), 'NoMatchingPolicy');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '28-why-application');
    });

    it("explains the signed-in admin's own live decision: the merge, every evaluator's inputs (its tenant-admin role for RBAC), the DataScope", async () => {
      const me = (await consoleBrowser.api<{ subject: string }>(admin, 'GET', `${BASE}/me/permissions`)).body.subject;
      // About someone else, the live explanation is not offered (the route answers for the token's own caller only).
      const page = await consoleBrowser.signIn(admin, '/console/why?subject=bob&action=View&module=authorization&resourceType=role');
      await showing(page.getByTestId('saved-outcome'), 'Permit');
      expect(await page.getByRole('button', { name: 'Explain my live decision' }).count()).toBe(0);

      await page.getByLabel('Subject', { exact: true }).fill(me);
      await page.getByRole('button', { name: 'Ask' }).click();
      await showing(page.getByTestId('saved-outcome'), 'Permit');
      const live = page.getByRole('region', { name: 'My live decision' });
      await live.getByRole('button', { name: 'Explain my live decision' }).click();
      await showing(live.getByTestId('live-outcome'), 'Permit');
      await showing(live.getByTestId('live-merge'), 'AnyAllow', true);
      expect(await live.getByTestId('live-merge').textContent()).toContain('authorization.role.view');
      expect(await live.getByRole('table', { name: 'Evaluators of the live decision' }).getByRole('rowheader').allTextContents()).toEqual([
        'RBAC',
        'AppScope',
        'ABAC',
        'ReBAC',
        'Feature',
      ]);
      // Each evaluator's inputs behind a disclosure: RBAC looked at the admin's roles.
      const rbacInputs = live.getByTestId('inputs-RBAC');
      expect(await rbacInputs.getAttribute('open')).toBeNull();
      await rbacInputs.locator('summary').first().click();
      await showing(rbacInputs.locator('dd'), 'tenant-admin', true);
      expect(await live.getByTestId('live-data-scope').textContent()).toContain('the whole tenant');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '26-why-live-explanation');
    });

    it("shows a user without the permissions the API's 403 on both screens", async () => {
      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/authorization\// });
      const page = await consoleBrowser.signIn(consoleBrowser.token('carol'), '/console/why?subject=bob&action=View&module=authorization&resourceType=role');
      await showing(page.getByRole('alert'), 'HTTP 403', true);
      await page.goto(`${consoleBrowser.baseUrl}/console/audit`);
      await showing(page.getByRole('alert'), 'HTTP 403', true);
      await consoleBrowser.screenshot(page, '25-audit-forbidden');
    });
  });
}
