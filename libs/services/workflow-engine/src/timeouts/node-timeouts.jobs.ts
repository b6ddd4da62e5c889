import { FleetService } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';

/**
 * `workflow-engine.node-timeouts` (`NodeTimeoutRunner.run`). Every 60 s: timeouts are set in hours
 * and days, so a minute of lateness is invisible, while an idle run costs one indexed query. The
 * due times live in `workflow.task_timer`, not in this schedule: a missed tick (operations down)
 * loses nothing, the next run fires whatever came due meanwhile.
 */
export const nodeTimeoutsJob = declareJob({
  service: FleetService.workflowEngine,
  name: 'node-timeouts',
  description:
    'Fires the due node timeouts of open workflow tasks (remind, auto-approve, auto-reject, transfer, escalate), each once, in the transaction of its action; tenants with workflow.runtime off are skipped and keep their timers',
  moduleName: 'TimeoutsModule',
  schedule: { intervalSeconds: 60 },
  timeoutSeconds: 120,
});

export const WORKFLOW_ENGINE_JOBS = [nodeTimeoutsJob];
