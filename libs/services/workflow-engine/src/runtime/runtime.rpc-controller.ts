import { UseGuards } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, DataScope, Page, ReceivedOf, WorkflowRpc } from '@lp/contracts';
import { Authorize, CurrentDataScope } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { WorkflowRuntimeGuard, WritesNothing } from '../runtime-feature/workflow-runtime.guard';
import { InstanceResponse, TaskDecisionResponse, TaskResponse } from './dto/runtime.responses';
import { TaskFactsLoader } from './runtime-facts.loaders';
import { INSTANCE, TASK } from './runtime.controller';
import { RuntimeService } from './runtime.service';

/**
 * The runtime over RPC (the MCP gateway's workflow tools call it as the end user): the same
 * permissions, task facts, `workflow.runtime` gate, validation (the contract's schemas are the
 * routes' schemas) and service methods as the HTTP routes. The RPC server does not inherit the
 * app's global guards (only authorization), so the feature gate is named here; it runs after the
 * authorization check, so nothing is written either way.
 */
@RpcController()
@UseGuards(WorkflowRuntimeGuard)
export class RuntimeRpcController {
  constructor(private readonly runtime: RuntimeService) {}

  @RpcHandler(WorkflowRpc.todo)
  @Authorize({ ...TASK, action: AuthorizationAction.View })
  @WritesNothing('reads the todo list')
  todo(@Payload() message: ReceivedOf<typeof WorkflowRpc.todo>, @CurrentDataScope() scope: DataScope): Promise<Page<TaskResponse>> {
    return this.runtime.todo(message.caller, scope, message.payload);
  }

  @RpcHandler(WorkflowRpc.complete)
  @Authorize({ ...TASK, action: AuthorizationAction.Approve, facts: TaskFactsLoader })
  complete(@Payload() message: ReceivedOf<typeof WorkflowRpc.complete>): Promise<TaskDecisionResponse> {
    const { taskId, ...body } = message.payload;
    return this.runtime.decide(message.caller, taskId, { decision: 'approve', ...body });
  }

  @RpcHandler(WorkflowRpc.reject)
  @Authorize({ ...TASK, action: AuthorizationAction.Reject, facts: TaskFactsLoader })
  reject(@Payload() message: ReceivedOf<typeof WorkflowRpc.reject>): Promise<TaskDecisionResponse> {
    const { taskId, ...body } = message.payload;
    return this.runtime.decide(message.caller, taskId, { decision: 'reject', ...body });
  }

  @RpcHandler(WorkflowRpc.start)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Create })
  start(@Payload() message: ReceivedOf<typeof WorkflowRpc.start>): Promise<{ instance: InstanceResponse; created: boolean }> {
    return this.runtime.start(message.caller, message.payload);
  }
}
