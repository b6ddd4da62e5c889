import type { Page } from 'playwright-core';
import { eventually } from '@lp/platform/testing';
import type { ConsoleBrowser, ConsoleRun } from '../../support/console-browser';

/**
 * The Jobs screen against the embedded platform: find a job, edit its cron with the API's own rules
 * judged as it is typed and the next runs listed, save it, run it now and watch its execution, stop
 * and start it; a user who may only view sees no controls and the API's 403 when they ask anyway.
 */
const JOB = 'operations.execution-retention';
const VIEWER = 'jobs-viewer';

interface Problem {
  code: string;
  detail: string;
  errors?: Record<string, string[]>;
}

export function jobsScreen(run: ConsoleRun): void {
  describe('admin console: jobs', () => {
    let consoleBrowser: ConsoleBrowser;

    beforeAll(async () => {
      // The platform tenant: the fleet's jobs are platform-level, no other tenant's administrator may manage them (issue 31).
      consoleBrowser = await run.screen();
      // A role that may view jobs but not manage them, bound to the viewer.
      const admin = consoleBrowser.adminToken;
      const role = await consoleBrowser.api<{ id: string }>(admin, 'POST', '/api/authorization/roles', { name: 'jobs-viewer' });
      expect(role.status).toBe(201);
      const grant = await consoleBrowser.api(admin, 'POST', `/api/authorization/roles/${role.body.id}/permissions`, { permissionCode: 'operations.jobs.view' });
      expect(grant.status).toBe(204);
      expect((await consoleBrowser.api(admin, 'POST', `/api/authorization/users/${VIEWER}/roles/${role.body.id}`)).status).toBe(204);
    }, 120_000);

    afterAll(async () => {
      await consoleBrowser?.close();
    });

    afterEach(() => {
      expect(consoleBrowser.takeProblems()).toEqual([]);
    });

    it('judges cron as the API does: what the screen refuses as it is typed the API refuses in the same words, and what it accepts the API saves with the same next run', async () => {
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken, `/console/jobs/${JOB}`);
      const cron = page.getByLabel('Cron expression (UTC)');
      await cron.waitFor();
      const fieldErrors = page.locator('.schedule-editor .field-error');
      // Next ticks that do not move while the test runs (no every-few-seconds expressions).
      const expressions = [
        '15 4 * * 1-5',
        '0 30 9 * * MON',
        '0 0 L * *',
        '30 2 1 */2 *',
        '0 25 * * *',
        '61 * * * *',
        '* * *',
        '@daily',
        '0 0 30 2 *',
        '1-5/0 * * * *',
        '1 '.repeat(81).trim(),
      ];
      for (const expression of expressions) {
        const answer = await consoleBrowser.api<Problem & { nextRunAt: string }>(consoleBrowser.adminToken, 'PUT', `/api/operations/jobs/${JOB}`, {
          cronExpression: expression,
          enabled: true,
        });
        await cron.fill(expression);
        if (answer.status === 200) {
          await nextRunTimes(page).getByRole('listitem').nth(4).waitFor({ timeout: 2_000 });
          expect({
            expression,
            errors: await fieldErrors.allTextContents(),
            first: await nextRunTimes(page).locator('time').first().getAttribute('datetime'),
          }).toEqual({
            expression,
            errors: [],
            first: answer.body.nextRunAt,
          });
        } else {
          expect({ expression, status: answer.status, code: answer.body.code }).toEqual({ expression, status: 400, code: 'ScheduleInvalid' });
          const [message] = answer.body.errors?.cronExpression ?? [];
          await fieldErrors.filter({ hasText: message }).waitFor({ timeout: 2_000 });
          expect({ expression, errors: await fieldErrors.allTextContents(), lists: await nextRunTimes(page).count() }).toEqual({
            expression,
            errors: [message],
            lists: 0,
          });
        }
      }
      expect(
        (await consoleBrowser.api(consoleBrowser.adminToken, 'PUT', `/api/operations/jobs/${JOB}`, { cronExpression: '37 3 * * *', enabled: true })).status,
      ).toBe(200);
    });

    it('lets the admin find a job, edit its cron with live checks and next runs, save it, run it now, and stop and start it', async () => {
      const page = await consoleBrowser.signIn(consoleBrowser.adminToken);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Jobs' }).click();
      await page.getByLabel('Filter jobs').fill('retention');
      const link = page.getByRole('link', { name: JOB, exact: true });
      await link.waitFor();
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '40-jobs-list');
      await link.click();
      await page.getByRole('heading', { name: JOB }).waitFor();

      // An invalid cron: the API's own message at once, and no next runs.
      const cron = page.getByLabel('Cron expression (UTC)');
      await cron.fill('0 25 * * *');
      await page.locator('.schedule-editor .field-error').filter({ hasText: 'got value 25 expected range 0-23' }).waitFor();
      expect(await nextRunTimes(page).count()).toBe(0);
      expect(await cron.getAttribute('aria-invalid')).toBe('true');
      // Saved anyway, the API decides: its 400 is shown, and its field error next to the field.
      consoleBrowser.expectFailedRequests({ status: 400, path: `/api/operations/jobs/${JOB}` });
      await page.getByRole('button', { name: 'Save schedule' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'ScheduleInvalid' });
      await refused.waitFor();
      expect(await refused.textContent()).toContain('HTTP 400');
      await consoleBrowser.screenshot(page, '41-jobs-cron-invalid');

      // A valid one: its next 5 runs, as the scheduler reads it (UTC).
      await cron.fill('15 4 * * 1-5');
      await nextRunTimes(page).getByRole('listitem').nth(4).waitFor();
      expect(await refused.count()).toBe(0);
      const shown = await nextRunTimes(page)
        .locator('time')
        .evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
      expect(shown.map((iso) => new Date(iso!).getUTCHours() * 60 + new Date(iso!).getUTCMinutes())).toEqual([255, 255, 255, 255, 255]);
      expect(shown.map((iso) => new Date(iso!).getUTCDay()).every((day) => day >= 1 && day <= 5)).toBe(true);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '42-jobs-cron-next-runs');

      await page.getByRole('button', { name: 'Save schedule' }).click();
      await page.getByRole('status').filter({ hasText: 'Schedule saved' }).waitFor();
      await page.getByTestId('job-schedule').getByText('15 4 * * 1-5', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'All jobs' }).click();
      await page.getByLabel('Filter jobs').fill(JOB);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: JOB, exact: true }) });
      await row.getByText('15 4 * * 1-5').waitFor();
      await row.getByRole('link', { name: JOB, exact: true }).click();

      // Run now: a progress indicator while the request is in flight (held until it is seen), then the run in the history.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/api/operations/jobs/${JOB}/run`, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Run now' }).click();
      await page.getByRole('button', { name: 'Running…' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Running the job' }).waitFor();
      await consoleBrowser.screenshot(page, '43-jobs-running');
      release();
      await page.getByRole('status').filter({ hasText: 'Run finished: succeeded' }).waitFor();
      await page.unroute(`**/api/operations/jobs/${JOB}/run`);
      const history = page.getByRole('table', { name: `Executions of ${JOB}, newest first` });
      const newest = history.getByRole('row').nth(1);
      await newest.getByText('succeeded').waitFor();
      expect(await newest.getByRole('cell').allTextContents()).toEqual([
        'succeeded',
        'run now',
        expect.any(String),
        expect.any(String),
        expect.stringMatching(/^\d+(\.\d)? m?s$/),
        'admin',
        expect.stringMatching(/^\d+ executions older than 30 days deleted/),
      ]);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '44-jobs-run-succeeded');

      // Stop and start: the automatic-schedule switch.
      const facts = page.locator('.job-facts');
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('button', { name: 'Start' }).waitFor();
      await facts.getByText('Stopped', { exact: true }).waitFor();
      await facts.getByText('none (stopped)').waitFor();
      await consoleBrowser.screenshot(page, '45-jobs-stopped');
      // The list filtered by the API: stopped jobs whose last run succeeded (this one, run just now).
      await page.getByRole('link', { name: 'All jobs' }).click();
      await page.getByLabel('State').selectOption('false');
      await page.getByLabel('Last run').selectOption('succeeded');
      const stoppedRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: JOB, exact: true }) });
      await stoppedRow.getByText('Stopped', { exact: true }).waitFor();
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ state: 'false', last: 'succeeded' });
      // The row above can show before the filtered page has replaced the unfiltered one: wait for the list to settle.
      const states = await eventually(
        async () => new Set(await page.locator('.jobs-table tbody .job-state').allTextContents()),
        (seen) => seen.size === 1,
        10_000,
      );
      expect(states).toEqual(new Set(['Stopped']));
      await stoppedRow.getByRole('link', { name: JOB, exact: true }).click();
      await page.getByRole('heading', { name: JOB }).waitFor();
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      await facts.getByText('Started', { exact: true }).waitFor();
    });

    it('shows a user who may only view jobs no controls, and the API 403 when they ask for a run by its address', async () => {
      const viewer = consoleBrowser.token(VIEWER);
      const permissions = () => consoleBrowser.api<{ codes: string[] }>(viewer, 'GET', '/api/authorization/me/permissions');
      const held = await eventually(permissions, (answer) => answer.body.codes?.includes('operations.jobs.view') ?? false, 10_000, 100);
      expect(held.body.codes).toEqual(expect.arrayContaining(['operations.jobs.view']));
      expect(held.body.codes).not.toContain('operations.jobs.manage');
      const page = await consoleBrowser.signIn(viewer, `/console/jobs/${JOB}`);
      await page.getByRole('heading', { name: JOB }).waitFor();
      await page
        .getByRole('table', { name: `Executions of ${JOB}, newest first` })
        .getByText('succeeded')
        .first()
        .waitFor();
      for (const name of ['Run now', 'Stop', 'Start', 'Save schedule']) expect(await page.getByRole('button', { name }).count()).toBe(0);
      expect(await page.getByLabel('Cron expression (UTC)').count()).toBe(0);
      // The list is drawn from the schedule after the page's first data: wait for it, then count.
      await nextRunTimes(page).getByRole('listitem').nth(4).waitFor();
      expect(await nextRunTimes(page).getByRole('listitem').count()).toBe(5);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '46-jobs-viewer');

      const refused = await consoleBrowser.api<Problem>(viewer, 'POST', `/api/operations/jobs/${JOB}/run`);
      expect(refused.status).toBe(403);
      await page.goto(`${consoleBrowser.baseUrl}/console/jobs/${JOB}/run`);
      await page.getByRole('heading', { name: `Run ${JOB} now?` }).waitFor();
      consoleBrowser.expectFailedRequests({ status: 403, path: `/api/operations/jobs/${JOB}/run` });
      await page.getByRole('button', { name: 'Run now' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'HTTP 403' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain(refused.body.detail);
      expect(await consoleBrowser.accessibilityViolations(page)).toEqual([]);
      await consoleBrowser.screenshot(page, '47-jobs-viewer-run-refused');
    });
  });
}

function nextRunTimes(page: Page) {
  return page.getByRole('list', { name: 'Next run times' });
}
