import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, JobScheduleEntryView, ManualJobRunView, OperationsRpc, ReceivedOf } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { JobsService } from './jobs.service';

/**
 * `GET /api/operations/jobs` and `POST /api/operations/jobs/{jobName}/run` over the broker (the MCP
 * gateway's job tools): the same service methods, permissions and execution audit, decided for
 * the caller in the message.
 */
@RpcController()
export class JobsRpcController {
  constructor(private readonly jobs: JobsService) {}

  @RpcHandler(OperationsRpc.listJobs)
  @Authorize({ module: 'operations', resource: 'jobs', action: AuthorizationAction.View })
  list(): Promise<JobScheduleEntryView[]> {
    return this.jobs.list();
  }

  @RpcHandler(OperationsRpc.runJob)
  @Authorize({ module: 'operations', resource: 'jobs', action: AuthorizationAction.Manage })
  run(@Payload() message: ReceivedOf<typeof OperationsRpc.runJob>): Promise<ManualJobRunView> {
    return this.jobs.run(message.payload.jobName, message.caller);
  }
}
