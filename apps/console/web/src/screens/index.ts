import { accessScreen } from './access';
import { auditScreen } from './audit';
import { jobsScreen } from './jobs';
import type { ScreenDefinition } from './screen';
import { tasksScreen } from './tasks';
import { webhooksScreen } from './webhooks';
import { whyScreen } from './why';

/** The console's screens in menu order. */
export const screens: readonly ScreenDefinition[] = [accessScreen, whyScreen, auditScreen, jobsScreen, tasksScreen, webhooksScreen];
