import type { Locator, Page } from 'playwright-core';
import { eventually } from '@lp/platform/testing';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

/**
 * Waits (bounded by the page's timeout) until what a field's `aria-describedby` points at (its hint
 * and its error messages, shown beside it) contains `text`. The fields checked here all have a hint,
 * so the reference is there before any error is.
 */
async function expectDescription(field: Locator, text: string): Promise<void> {
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
  expect(ids).not.toEqual([]);
  const described = ids.map((id) => `[id="${id}"]`).join(', ');
  await field.page().locator(described).filter({ hasText: text }).first().waitFor();
}

/**
 * A tenant of its own: its roles, ABAC rules and feature switches are this screen's alone. Its
 * bootstrap made the role `tenant-admin` and bound it to `admin`: the role the checks below expect.
 */
const TENANT = { id: 'console-access', adminSubject: 'admin' };

/**
 * The Access screen in headless Chromium against the embedded platform: roles (list, create, the
 * permission tree, members), the API's validation beside its field, ABAC rules, and a tenant's
 * feature switch, each tab checked by axe-core and photographed.
 */
export function accessScreen(run: ConsoleRun): void {
  describe('admin console: Access', () => {
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      consoleBrowser = await run.screen(TENANT);
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    async function openAccess(token: string, tab = ''): Promise<Page> {
      const page = await consoleBrowser.signIn(token, `/console/access${tab ? `/${tab}` : ''}`);
      await page.getByRole('heading', { name: 'Access', level: 1 }).waitFor();
      return page;
    }

    it('lets the admin create a role, grant it a permission in the tree and assign it to alice, who then sees Access and the roles', async () => {
      const page = await openAccess(consoleBrowser.adminToken);
      expect(page.url()).toBe(`${consoleBrowser.baseUrl}/console/access/roles`);
      await page.getByRole('tab', { name: 'Roles', selected: true }).waitFor();
      await page.getByRole('link', { name: 'tenant-admin', exact: true }).waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '11-access-roles');

      await page.getByRole('button', { name: 'New role' }).click();
      await page.getByLabel('Name', { exact: true }).fill('console-reader');
      await page.getByLabel('Description', { exact: true }).fill('Reads the role list in the console');
      await page.getByRole('button', { name: 'Create role' }).click();
      await page.getByRole('heading', { name: 'Role console-reader' }).waitFor();
      await page.getByText('Role “console-reader” created.').waitFor();

      // The tree starts folded by module; the filter unfolds what matches.
      await page.getByLabel('Filter permissions').fill('role.view');
      const permission = page.getByRole('checkbox', { name: 'authorization.role.view', exact: true });
      expect(await permission.isChecked()).toBe(false);
      await permission.check();
      await page.getByText('Granted authorization.role.view to console-reader.').waitFor();
      expect(await permission.isChecked()).toBe(true);
      await page.getByText(/^1 of \d+ permissions granted to console-reader\.$/).waitFor();
      await page.getByLabel('Filter permissions').fill('');
      await page.getByRole('checkbox', { name: 'Only granted' }).check();
      expect(await page.getByRole('list', { name: 'Permission tree of console-reader' }).getByRole('checkbox').count()).toBe(1);

      const members = page.getByRole('table', { name: 'Members of console-reader' });
      await members.getByText('Nobody holds console-reader yet.').waitFor();
      await page.getByLabel('Subject id').fill('alice');
      await page.getByRole('button', { name: 'Assign role' }).click();
      await page.getByText('Assigned console-reader to alice.').waitFor();
      // The members list (GET /roles/{id}/members) shows her, with who assigned the role.
      const aliceRow = members.getByRole('row', { name: /alice/ });
      await aliceRow.waitFor();
      expect(await aliceRow.getByRole('cell').nth(1).textContent()).toBe('admin');
      await page.getByRole('navigation', { name: 'Members pages' }).getByText('Page 1 of 1 · 1 in all').waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '12-access-role-detail');

      // What the UI did is what the API holds.
      const held = await consoleBrowser.api<{ items: Array<{ name: string }> }>(consoleBrowser.adminToken, 'GET', '/api/authorization/users/alice/roles');
      expect(held.body.items.map((role) => role.name)).toEqual(['console-reader']);

      const alice = await consoleBrowser.signIn(consoleBrowser.token('alice'));
      const menu = alice.getByRole('navigation', { name: 'Console' });
      await menu.getByRole('link', { name: 'Access' }).waitFor();
      expect(await menu.getByRole('link').allTextContents()).toEqual(['Access']);
      await menu.getByRole('link', { name: 'Access' }).click();
      await alice.getByRole('link', { name: 'console-reader', exact: true }).waitFor();
      await alice.getByRole('link', { name: 'tenant-admin', exact: true }).waitFor();
      // Alice may only look: no button to create or delete roles.
      expect(await alice.getByRole('button', { name: 'New role' }).count()).toBe(0);
      expect(await alice.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      await consoleBrowser.screenshot(alice, '13-access-alice-roles');

      // A tab she may not read answers with the API's 403.
      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/authorization\/features/ });
      await alice.getByRole('tab', { name: 'Features' }).click();
      const denied = alice.getByRole('alert').first();
      await denied.waitFor();
      expect(await denied.textContent()).toContain('HTTP 403');

      // And back: the admin revokes the role from alice and the permission from the role.
      await aliceRow.getByRole('button', { name: 'Revoke console-reader from alice' }).click();
      await aliceRow.getByRole('button', { name: 'Yes, revoke from alice' }).click();
      await page.getByText('Revoked console-reader from alice.').waitFor();
      await aliceRow.waitFor({ state: 'detached' });
      await members.getByText('Nobody holds console-reader yet.').waitFor();
      await permission.uncheck();
      await page.getByText('Revoked authorization.role.view from console-reader.').waitFor();
      const after = await consoleBrowser.api<{ items: unknown[] }>(consoleBrowser.adminToken, 'GET', `/api/authorization/users/alice/roles`);
      expect(after.body.items).toEqual([]);
    }, 45_000);

    it('opens a role by its address and pages and searches its members; an unknown id is named as such', async () => {
      const role = await consoleBrowser.api<{ id: string }>(consoleBrowser.adminToken, 'POST', '/api/authorization/roles', { name: 'case-team' });
      expect(role.status).toBe(201);
      const subjects = Array.from({ length: 23 }, (_, i) => `member-${String(i + 1).padStart(2, '0')}`);
      for (const subject of subjects) {
        expect((await consoleBrowser.api(consoleBrowser.adminToken, 'POST', `/api/authorization/users/${subject}/roles/${role.body.id}`)).status).toBe(204);
      }

      // Straight to the role's address: one GET /roles/{id}, no list to come from.
      const page = await openAccess(consoleBrowser.adminToken, `roles/${role.body.id}`);
      await page.getByRole('heading', { name: 'Role case-team' }).waitFor();
      const members = page.getByRole('table', { name: 'Members of case-team' });
      const pager = page.getByRole('navigation', { name: 'Members pages' });
      await pager.getByText('Page 1 of 2 · 23 in all').waitFor();
      const shown = async () => (await members.getByRole('rowheader').allTextContents()).map((text) => text.trim());
      expect(await shown()).toEqual(subjects.slice(0, 20));
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '18-access-role-members');

      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText('Page 2 of 2 · 23 in all').waitFor();
      await members.getByRole('rowheader', { name: 'member-23' }).waitFor();
      expect(await shown()).toEqual(subjects.slice(20));
      expect(page.url()).toContain('memberPage=1');

      // The search is the API's (case-insensitive, contains), and starts again at the first page.
      await page.getByLabel('Find members by subject').fill('BER-1');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await pager.getByText('Page 1 of 1 · 10 in all').waitFor();
      expect(await shown()).toEqual(subjects.slice(9, 19));
      expect(page.url()).toContain('memberSearch=BER-1');
      expect(page.url()).not.toContain('memberPage');
      await page.getByLabel('Find members by subject').fill('nobody');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await members.getByText("No member's subject contains “nobody”.").waitFor();
      await page.getByRole('button', { name: 'Show all members' }).click();
      await pager.getByText('Page 1 of 2 · 23 in all').waitFor();

      // An id the tenant does not have: the API's 404 becomes "No such role".
      consoleBrowser.expectFailedRequests({ status: 404, path: /^\/api\/authorization\/roles\/00000000-0000-4000-8000-000000000000/ });
      const missing = await openAccess(consoleBrowser.adminToken, 'roles/00000000-0000-4000-8000-000000000000');
      await missing.getByRole('heading', { name: 'No such role' }).waitFor();
      expect(await missing.getByRole('alert').count()).toBe(0);
    }, 30_000);

    it("shows the form's checks and the API's answers beside the field: role names and a malformed ABAC rule", async () => {
      const page = await openAccess(consoleBrowser.adminToken, 'roles');
      // The API's name search (`GET /roles?search=`), any case.
      await page.getByLabel('Find roles by name').fill('TENANT');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: 'Show all roles' }).waitFor();
      expect(page.url()).toContain('q=TENANT');
      // The search's page replaces the unfiltered one a moment after the link shows: read it once settled.
      const found = await eventually(
        () => page.getByRole('table').getByRole('link').allTextContents(),
        (links) => links.length === 1,
        10_000,
      );
      expect(found).toEqual(['tenant-admin']);
      // The seeded role the tenant is administered through: no Delete (the API refuses it), said so in its place.
      const seeded = page.getByRole('row', { name: /tenant-admin/ });
      expect(await seeded.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      expect(await seeded.textContent()).toContain('Seeded: kept');

      await page.getByRole('button', { name: 'New role' }).click();
      const name = page.getByLabel('Name', { exact: true });

      // Over-long: the form says so before sending anything.
      await name.fill('r'.repeat(101));
      await page.getByRole('button', { name: 'Create role' }).click();
      await expectDescription(name, 'at most 100 are allowed');
      expect(await name.getAttribute('aria-invalid')).toBe('true');

      // Taken: only the API knows; its answer is shown beside the name (and above the form).
      consoleBrowser.expectFailedRequests({ status: 409, path: '/api/authorization/roles' });
      await name.fill('tenant-admin');
      await page.getByRole('button', { name: 'Create role' }).click();
      await expectDescription(name, 'A role named "tenant-admin" already exists in this tenant.');
      expect(await page.getByRole('alert').first().textContent()).toContain('Authorization.RoleNameTaken');
      await consoleBrowser.screenshot(page, '14-access-role-validation');

      await page.getByRole('tab', { name: 'ABAC rules' }).click();
      await page.getByRole('heading', { name: 'ABAC rules' }).waitFor();
      await page.getByText('No ABAC rules').waitFor();
      await page.getByRole('button', { name: 'New rule' }).click();
      const ruleName = page.getByLabel('Name', { exact: true });
      const conditions = page.getByLabel('Conditions (JSON)');

      // The form's own checks: a required name, conditions that parse.
      await conditions.fill('[{ "field": "ResourceAmount", ');
      await page.getByRole('button', { name: 'Create rule' }).click();
      await expectDescription(ruleName, 'Enter a name.');
      await expectDescription(conditions, 'The conditions are not valid JSON');

      // Well formed, but the value has the wrong type for its field: the API's field error lands beside Conditions.
      consoleBrowser.expectFailedRequests({ status: 400, path: '/api/authorization/abac-rules' });
      await ruleName.fill('no large refunds');
      await conditions.fill('[{ "field": "ResourceAmount", "operator": "GreaterThan", "value": "lots" }]');
      await page.getByRole('checkbox', { name: 'Approve' }).check();
      await page.getByLabel('Modules').fill('billing');
      await page.getByRole('button', { name: 'Create rule' }).click();
      await expectDescription(conditions, 'value must be a number for field ResourceAmount');
      expect(await page.getByRole('alert').first().textContent()).toContain('Validation.Failed');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '15-access-abac-validation');

      await conditions.fill('[{ "field": "ResourceAmount", "operator": "GreaterThan", "value": 1000 }]');
      await page.getByRole('button', { name: 'Create rule' }).click();
      await page.getByText('Rule “no large refunds” created (priority 100).').waitFor();
      const row = page.getByRole('row', { name: /no large refunds/ });
      expect(await row.textContent()).toContain('ResourceAmount GreaterThan 1000');
      await consoleBrowser.screenshot(page, '16-access-abac-rules');

      // Edit replaces the rule: the form comes back filled in, focus returns to Edit after saving.
      await row.getByRole('button', { name: 'Edit rule no large refunds' }).click();
      expect(await page.getByLabel('Conditions (JSON)').inputValue()).toContain('"GreaterThan"');
      await page.getByLabel('Priority').fill('5');
      await page.getByRole('button', { name: 'Save rule' }).click();
      await page.getByText('Rule “no large refunds” saved.').waitFor();
      expect(await row.getByRole('cell').first().textContent()).toBe('5');

      // A rule opens by its address (`?rule={id}`, read with GET /abac-rules/{ruleId}).
      const rules = await consoleBrowser.api<{ items: Array<{ id: string; name: string }> }>(consoleBrowser.adminToken, 'GET', '/api/authorization/abac-rules');
      const ruleId = rules.body.items.find((rule) => rule.name === 'no large refunds')?.id;
      const linked = await openAccess(consoleBrowser.adminToken, `abac-rules?rule=${ruleId}`);
      await linked.getByRole('heading', { name: 'Edit rule “no large refunds”' }).waitFor();
      expect(await linked.getByLabel('Priority').inputValue()).toBe('5');
      consoleBrowser.expectFailedRequests({ status: 404, path: '/api/authorization/abac-rules/00000000-0000-4000-8000-000000000000' });
      const unknown = await openAccess(consoleBrowser.adminToken, 'abac-rules?rule=00000000-0000-4000-8000-000000000000');
      await unknown.getByText('This tenant has no ABAC rule with the id in the address').waitFor();

      await row.getByRole('button', { name: 'Delete rule no large refunds' }).click();
      await row.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByText('Rule “no large refunds” deleted.').waitFor();
      await page.getByText('No ABAC rules').waitFor();
    }, 45_000);

    it('offers on the seeded tenant-admin role neither Delete, nor a rename, nor the removals the API refuses', async () => {
      const roles = await consoleBrowser.api<{ items: Array<{ id: string }> }>(consoleBrowser.adminToken, 'GET', '/api/authorization/roles?name=tenant-admin');
      const page = await openAccess(consoleBrowser.adminToken, `roles/${roles.body.items[0]?.id}`);
      await page.getByRole('heading', { name: 'Role tenant-admin' }).waitFor();
      await page.getByText(/^\d+ of \d+ permissions granted to tenant-admin\.$/).waitFor();
      expect(await page.getByRole('button', { name: 'Delete role' }).count()).toBe(0);
      await page.getByLabel('Filter permissions').fill('role-permission.grant');
      const kept = page.getByRole('checkbox', { name: 'authorization.role-permission.grant', exact: true });
      expect(await kept.isChecked()).toBe(true);
      expect(await kept.isDisabled()).toBe(true);
      await page.getByLabel('Filter permissions').fill('feature.view');
      expect(await page.getByRole('checkbox', { name: 'authorization.feature.view', exact: true }).isDisabled()).toBe(false);
      await page.getByRole('button', { name: 'Edit role' }).click();
      expect(await page.getByLabel('Name', { exact: true }).getAttribute('readonly')).not.toBeNull();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '19-access-seeded-role');
    });

    it("toggles a feature for the tenant and shows the API's answer", async () => {
      const page = await openAccess(consoleBrowser.adminToken, 'features');
      const tickets = page.getByRole('switch', { name: 'tickets' });
      await tickets.waitFor();
      expect(await tickets.getAttribute('aria-checked')).toBe('true');

      await tickets.click();
      await page.getByText('tickets is now off for this tenant (override off).').waitFor();
      expect(await tickets.getAttribute('aria-checked')).toBe('false');
      const features = await consoleBrowser.api<{ items: Array<{ code: string; tenantOverride: boolean | null; effective: boolean }> }>(
        consoleBrowser.adminToken,
        'GET',
        '/api/authorization/features',
      );
      expect(features.body.items.find((feature) => feature.code === 'tickets')).toMatchObject({ tenantOverride: false, effective: false });
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '17-access-features');

      await page.getByRole('button', { name: 'Follow default: tickets' }).click();
      await page.getByText('tickets follows the global default again.').waitFor();
      expect(await tickets.getAttribute('aria-checked')).toBe('true');

      // The tabs are one tab stop; the arrow keys move between them (and to their address).
      await page.getByRole('tab', { name: 'Features' }).focus();
      await page.keyboard.press('ArrowRight');
      await page.getByRole('heading', { name: 'ABAC rules' }).waitFor();
      expect(page.url()).toBe(`${consoleBrowser.baseUrl}/console/access/abac-rules`);
      const abacTab = page.getByRole('tab', { name: 'ABAC rules', selected: true });
      expect(await abacTab.evaluate((tab) => tab === tab.ownerDocument.activeElement)).toBe(true);
    }, 30_000);
  });
}
