import { Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, JobDeclaration, JobRunResult, ReceivedOf, ServiceRpc } from '@lp/contracts';
import { ServiceJobs } from '@lp/platform/jobs';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { AuthorizationPort } from './service-definition';

// The contracts' pattern is the same for every service; the service only names the queue.
const catalogContract = ServiceRpc.jobCatalog('any');
const runContract = ServiceRpc.runJob('any');

/**
 * The jobs surface every service answers on its own queue: its catalog (operations seeds job
 * definitions from it; `operations.jobs.view`) and running one of its jobs (operations' scheduler
 * as its application caller, or a person's manual run; `operations.jobs.manage`). Built per service
 * app because the guard's decorator comes from the service definition (the runtime does not import
 * the guard library).
 */
export function serviceJobsRpcController(authorization: AuthorizationPort): Type {
  @RpcController()
  class ServiceJobsRpcController {
    constructor(private readonly jobs: ServiceJobs) {}

    @RpcHandler(catalogContract)
    @authorization.authorize({ module: 'operations', resource: 'jobs', action: AuthorizationAction.View })
    catalog(): JobDeclaration[] {
      return [...this.jobs.catalog];
    }

    @RpcHandler(runContract)
    @authorization.authorize({ module: 'operations', resource: 'jobs', action: AuthorizationAction.Manage })
    run(@Payload() message: ReceivedOf<typeof runContract>): Promise<JobRunResult> {
      const { jobName, trigger, executionId, scheduledFor } = message.payload;
      return this.jobs.run({ jobName, trigger, executionId, now: new Date(), ...(scheduledFor && { scheduledFor: new Date(scheduledFor) }) });
    }
  }
  return ServiceJobsRpcController;
}
