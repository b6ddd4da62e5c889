import type { Page } from 'playwright-core';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';
import { approval, DEFS, RUNTIME } from '../../support/workflow-routes';

/** A tenant of its own: the definition, the instances and admin's inbox are this screen's alone. */
const TENANT = { id: 'console-tasks', adminSubject: 'admin' };

/**
 * The Tasks screen in headless Chromium against the embedded platform: a definition published and
 * instances started through the API as `admin`, then the todo inbox, the task's progress graph
 * (drawn from the definition's structure, each node's state in colour, pattern and words, with its
 * text list), approve with a comment, reject with its required reason, transfer with the API's own
 * refusal shown, the done inbox, and the API's 403 for a user without `workflow.task.view`.
 */
const KEY = 'engagement-letter';
const definition = {
  name: 'Engagement letter',
  variables: [
    { name: 'amount', type: 'number', description: 'Fee estimate (EUR)' },
    { name: 'client', type: 'string' },
  ],
  nodes: [
    approval('review', ['admin'], { name: 'Partner review', operations: { transfer: true, delegate: true } }),
    {
      kind: 'parallel',
      key: 'checks',
      name: 'Checks',
      branches: [
        { nodes: [{ kind: 'cc', key: 'notify-client', name: 'Notify client', recipients: [{ kind: 'initiator' }] }] },
        {
          nodes: [
            {
              kind: 'exclusive',
              key: 'size',
              name: 'Fee size',
              branches: [
                { key: 'large', condition: { '>': [{ var: 'amount' }, 10000] }, nodes: [approval('finance', ['admin'], { name: 'Finance sign-off' })] },
                { key: 'small', default: true, nodes: [{ kind: 'cc', key: 'desk', name: 'Front desk', recipients: [{ kind: 'initiator' }] }] },
              ],
            },
          ],
        },
      ],
    },
  ],
};

export function tasksScreen(run: ConsoleRun): void {
  describe('admin console: tasks', () => {
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      consoleBrowser = await run.screen(TENANT);
      const admin = consoleBrowser.adminToken;
      const published = await consoleBrowser.api(admin, 'POST', `${DEFS}/${KEY}/deployments`, { definition });
      expect(published.status).toBe(201);
      for (const businessKey of ['matter-approve', 'matter-reject', 'matter-transfer']) {
        const started = await consoleBrowser.api(admin, 'POST', `${RUNTIME}/instances`, {
          definitionKey: KEY,
          businessKey,
          variables: { amount: 2500, client: 'Acme Ltd' },
        });
        expect(started.status).toBe(201);
      }
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    /** Signs in as admin and opens the pending task of the business key from the To do inbox. */
    async function openTodo(businessKey: string): Promise<Page> {
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, '/console/tasks');
      await page.getByRole('link', { name: `Partner review of ${businessKey}` }).click();
      await page.getByRole('heading', { name: 'Task: Partner review' }).waitFor();
      await nodeState(page, 'review', 'active');
      return page;
    }

    /** Waits until the graph draws the node in that state (and the text list says the same). */
    async function nodeState(page: Page, key: string, state: string): Promise<void> {
      await page.getByTestId('progress-graph').locator(`[data-node="${key}"][data-state="${state}"]`).waitFor();
      await page.getByRole('list', { name: 'Nodes and their states' }).locator(`li[data-node="${key}"][data-state="${state}"]`).waitFor();
    }

    it('lists the task in To do, draws the progress with the approval active, approves it with a comment, and shows it in Done', async () => {
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, '/console/tasks');
      const row = page.getByRole('row').filter({ hasText: 'matter-approve' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Running');
      // The row names the node and the definition with its version, not only their keys.
      expect(await row.getByRole('link').textContent()).toBe('Partner review');
      expect(await row.textContent()).toContain('Engagement letter v1');
      expect(await page.getByRole('tab', { name: 'To do' }).getAttribute('aria-selected')).toBe('true');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '01-tasks-todo');

      await row.getByRole('link').click();
      await page.getByRole('heading', { name: 'Task: Partner review' }).waitFor();
      const graph = page.getByRole('img', { name: /^Progress of engagement-letter for matter-approve \(Running\): active: Partner review/ });
      await graph.waitFor();
      await nodeState(page, 'review', 'active');
      for (const key of ['checks', 'notify-client', 'size', 'finance', 'desk', 'end']) await nodeState(page, key, 'pending');
      await nodeState(page, 'start', 'done');
      const reviewItem = page.getByRole('list', { name: 'Nodes and their states' }).locator('li[data-node="review"]');
      expect(await reviewItem.textContent()).toContain('▶ Active — waiting for admin');
      // The business data and the history are there too.
      expect(await page.getByRole('row', { name: /amount/ }).textContent()).toContain('2500');
      await page.getByRole('cell', { name: 'instance.started' }).waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '02-tasks-progress-active');

      await page.getByRole('button', { name: 'Approve…' }).click();
      // Focus moved into the form that opened.
      await page.getByLabel('Comment').and(page.locator(':focus')).waitFor();
      await page.getByLabel('Comment').fill('Engagement terms checked.');
      await page.getByRole('button', { name: 'Approve task' }).click();
      await page.getByRole('status').filter({ hasText: 'Approved review' }).waitFor();
      await nodeState(page, 'review', 'done');
      await nodeState(page, 'end', 'done');
      await nodeState(page, 'notify-client', 'done');
      await nodeState(page, 'desk', 'done');
      await nodeState(page, 'finance', 'skipped');
      expect(await page.getByTestId('instance-status').textContent()).toBe('Approved');
      expect(await page.getByTestId('task-status').textContent()).toBe('Approved');
      expect(await page.getByRole('button', { name: 'Approve…' }).count()).toBe(0);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '03-tasks-approved-completed');

      await page.getByRole('link', { name: '← All tasks' }).click();
      await page.getByRole('tab', { name: 'Done' }).click();
      const done = page.getByRole('row').filter({ hasText: 'matter-approve' });
      await done.waitFor();
      expect(await done.textContent()).toContain('Engagement terms checked.');
      expect(await done.textContent()).toContain('✓ Approved');
      await page.getByRole('tab', { name: 'To do' }).click();
      await page.getByRole('row').filter({ hasText: 'matter-reject' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'matter-approve' }).waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: 'Done' }).click();
      await done.waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '04-tasks-done');
    });

    it('rejects the second instance: the reason is required, then the graph shows the node rejected and the instance ended', async () => {
      const page = await openTodo('matter-reject');
      await page.getByRole('button', { name: 'Reject…' }).click();
      await page.getByRole('button', { name: 'Reject task' }).click();
      await page.getByText('Say why you reject the task.').waitFor();
      expect(await page.getByLabel('Reason').getAttribute('aria-invalid')).toBe('true');
      await consoleBrowser.screenshot(page, '05-tasks-reject-reason-required');

      await page.getByLabel('Reason').fill('The conflict check is not complete.');
      await page.getByRole('button', { name: 'Reject task' }).click();
      await page.getByRole('status').filter({ hasText: 'Rejected review' }).waitFor();
      await nodeState(page, 'review', 'rejected');
      await nodeState(page, 'end', 'rejected');
      for (const key of ['checks', 'notify-client', 'finance', 'desk']) await nodeState(page, key, 'skipped');
      expect(await page.getByTestId('instance-status').textContent()).toBe('Rejected');
      expect(await page.getByRole('list', { name: 'Nodes and their states' }).locator('li[data-node="review"]').textContent()).toContain(
        '✗ Rejected — rejected by admin',
      );
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '06-tasks-rejected');
    });

    it('transfers the third task: a missing subject is caught, the API’s refusal is shown, then the task leaves To do', async () => {
      const page = await openTodo('matter-transfer');
      await page.getByRole('button', { name: 'Transfer…' }).click();
      await page.getByRole('button', { name: 'Transfer task' }).click();
      await page.getByText('Enter the user (subject) who gets the task.').waitFor();

      consoleBrowser.expectFailedRequests({ status: 422, path: /^\/api\/workflow\/runtime\/tasks\/[^/]+\/transfer$/ });
      await page.getByLabel('Transfer to').fill('admin');
      await page.getByRole('button', { name: 'Transfer task' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'The task was not transferred' });
      await refused.waitFor();
      expect(await refused.textContent()).toContain('cannot be transferred to its own assignee');
      expect(await refused.textContent()).toContain('HTTP 422');
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '07-tasks-transfer-refused');

      await page.getByLabel('Transfer to').fill('erin');
      await page.getByRole('button', { name: 'Transfer task' }).click();
      await page.getByRole('status').filter({ hasText: 'Transferred review to erin' }).waitFor();
      expect(await page.getByTestId('task-status').textContent()).toBe('Transferred');
      await page.getByRole('list', { name: 'Nodes and their states' }).locator('li[data-node="review"]', { hasText: 'waiting for erin' }).waitFor();
      await consoleBrowser.screenshot(page, '08-tasks-transferred');

      await page.getByRole('link', { name: '← All tasks' }).click();
      await page.getByRole('tab', { name: 'To do', selected: true }).waitFor();
      await page.getByRole('tabpanel').locator('table, .notice').first().waitFor();
      await page.getByRole('row').filter({ hasText: 'matter-transfer' }).waitFor({ state: 'detached' });
    });

    it('shows a user without workflow.task.view the API’s 403 on the screen opened by its address', async () => {
      consoleBrowser.expectFailedRequests({ status: 403, path: /^\/api\/workflow\/tasks\// });
      const page = await consoleBrowser.signIn(consoleBrowser.token('erin'), '/console/tasks');
      const alert = page.getByRole('alert').first();
      await alert.waitFor();
      expect(await alert.textContent()).toContain('HTTP 403');
      expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Tasks' }).count()).toBe(0);
    });
  });
}
