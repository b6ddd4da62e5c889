import { ConsoleRun } from '../support/console-browser';
import { accessScreen } from './screens/access.screen';
import { apiExplorerScreen } from './screens/api-explorer.screen';
import { consoleShellScreen } from './screens/console-shell.screen';
import { jobsScreen } from './screens/jobs.screen';
import { oidcScreen } from './screens/oidc.screen';
import { tasksScreen } from './screens/tasks.screen';
import { webhooksScreen } from './screens/webhooks.screen';
import { whyAuditScreen } from './screens/why-audit.screen';

/**
 * The admin console in headless Chromium, every screen against one embedded platform (`npm start`)
 * and through one browser: starting those was most of what each screen's own spec file used to
 * cost, and Jest gives each file its own modules, so the screens share them by being suites of this
 * one file (`screens/*.screen.ts`). Each screen has its own tenant, users and data, or the platform
 * tenant where only it may act (sign-in and menu, jobs, the API explorer); its own browser contexts;
 * its own page errors. Single sign-on needs a platform that trusts an issuer (and then accepts none
 * of the tokens the others mint): it starts one of its own, in the same Chromium.
 */
// A screen's test drives several pages, accessibility scans and screenshots through a real browser:
// on a 2-core machine that the rest of the suite keeps busy, one took 30 s (Jest's default bound).
jest.setTimeout(90_000);

describe('admin console in Chromium', () => {
  const run = new ConsoleRun();

  beforeAll(async () => {
    await run.start();
  }, 180_000);

  // Also after a failed start or test: the browser, the platforms and their data directories.
  afterAll(async () => {
    await run.close();
  }, 60_000);

  consoleShellScreen(run);
  apiExplorerScreen(run);
  accessScreen(run);
  whyAuditScreen(run);
  jobsScreen(run);
  tasksScreen(run);
  webhooksScreen(run);
  oidcScreen(run);
});
