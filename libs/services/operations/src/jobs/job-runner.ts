import { Injectable } from '@nestjs/common';
import { JobRunResult, ServiceRpc, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcError, RpcTimeoutError } from '@lp/platform/messaging';
import { JobDefinitionEntity, JobExecutionEntity } from '../store';
import { JobExecutionAudit } from './job-execution-audit';
import { JobRunTimeoutError } from './jobs.errors';

/** A run's outcome: the owner's result, or the error it failed with (already audited). */
export type DispatchOutcome = { execution: JobExecutionEntity; result: JobRunResult } | { execution: JobExecutionEntity; error: unknown };

/**
 * Dispatches one run by JobName over RPC to the owning service's queue (competing consumers: one
 * replica of the owner runs it) and records its end in the execution audit. A business failure is
 * the owner's result and comes back unchanged; an exception (the owner's error, a timeout, an
 * unreachable owner) is audited as a failure and handed back for the caller to rethrow.
 */
@Injectable()
export class JobRunner {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: JobExecutionAudit,
  ) {}

  async dispatch(definition: JobDefinitionEntity, execution: JobExecutionEntity, caller: TrustedCaller): Promise<DispatchOutcome> {
    try {
      const result = await this.rpc.call(
        ServiceRpc.runJob(definition.source),
        {
          caller,
          payload: {
            jobName: definition.jobName,
            trigger: execution.trigger,
            executionId: execution.id,
            ...(execution.scheduledFor && { scheduledFor: execution.scheduledFor.toISOString() }),
          },
        },
        { timeoutMs: definition.timeoutSeconds * 1000 },
      );
      return { execution: await this.audit.finished(execution, { result }, new Date()), result };
    } catch (thrown) {
      const error = thrown instanceof RpcTimeoutError ? new JobRunTimeoutError(definition.jobName, definition.timeoutSeconds) : thrown;
      const code = error instanceof RpcError ? error.problem.code : ((error as { code?: unknown }).code?.toString() ?? 'InternalError');
      const detail = error instanceof RpcError ? (error.problem.detail ?? error.message) : error instanceof Error ? error.message : String(error);
      return { execution: await this.audit.finished(execution, { error: { code, detail } }, new Date()), error };
    }
  }
}
