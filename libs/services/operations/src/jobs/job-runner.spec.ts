import { DataSource } from 'typeorm';
import { JobRunResult, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcRemoteError, RpcTimeoutError } from '@lp/platform/messaging';
import { JobDefinitionEntity, JobExecutionEntity } from '../store';
import { JobExecutionAudit } from './job-execution-audit';
import { JobRunner } from './job-runner';
import { JobRunTimeoutError } from './jobs.errors';

/** The owning service as the runner sees it: one answer (or error) to `service.jobs.run`. */
class OwnerAnswering extends RpcClient {
  readonly asked: Array<{ pattern: string; data: unknown; service?: string; timeoutMs?: number }> = [];

  constructor(private readonly answer: () => Promise<unknown>) {
    super({});
  }

  async send<T>(pattern: string, data: unknown, options?: { service?: string; timeoutMs?: number }): Promise<T> {
    this.asked.push({ pattern, data, ...options });
    return (await this.answer()) as T;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The audit table as an in-memory list of the updates it received. */
function recordingAudit(): { audit: JobExecutionAudit; updates: unknown[] } {
  const updates: unknown[] = [];
  const dataSource = { getRepository: () => ({ update: async (_where: unknown, values: unknown) => void updates.push(values) }) } as unknown as DataSource;
  return { audit: new JobExecutionAudit(dataSource), updates };
}

const definition = Object.assign(new JobDefinitionEntity(), { jobName: 'svc.work', source: 'svc', timeoutSeconds: 12 });
const caller: TrustedCaller = { kind: 'user', subject: 'ann', tenantId: 'default', scopes: [], claimsDigest: 'ann' };
const execution = (): JobExecutionEntity =>
  JobExecutionAudit.newRow(
    definition,
    { id: 'e-1', trigger: 'manual', scheduledFor: null, actor: 'ann', correlationId: 'c-1', dispatchedBy: 'test:1' },
    new Date(),
  );

describe('JobRunner', () => {
  it("asks the owner's queue by JobName with the job's own timeout, as the caller", async () => {
    const owner = new OwnerAnswering(async () => ({ status: 'succeeded', detail: 'did it' }));
    await new JobRunner(owner, recordingAudit().audit).dispatch(definition, execution(), caller);
    expect(owner.asked).toEqual([
      {
        pattern: 'service.jobs.run',
        service: 'svc',
        timeoutMs: 12_000,
        data: { caller, payload: { jobName: 'svc.work', trigger: 'manual', executionId: 'e-1' } },
      },
    ]);
  });

  it("hands a business failure back unchanged and audits it with the binding's own code", async () => {
    const failure: JobRunResult = { status: 'failed', errorCode: 'Work.Blocked', detail: 'the ledger is closed', startedAt: '2026-11-25T10:00:00.000Z' };
    const { audit, updates } = recordingAudit();
    const outcome = await new JobRunner(new OwnerAnswering(async () => failure), audit).dispatch(definition, execution(), caller);
    expect(outcome).toEqual({ result: failure, execution: expect.objectContaining({ status: 'failed', errorCode: 'Work.Blocked' }) });
    expect(updates).toEqual([
      expect.objectContaining({
        status: 'failed',
        errorCode: 'Work.Blocked',
        detail: 'the ledger is closed',
        ownerStartedAt: new Date(failure.startedAt ?? ''),
      }),
    ]);
  });

  it("audits the owner's exception as a failure with its code and hands the error back to be rethrown", async () => {
    const remote = new RpcRemoteError('service.jobs.run', {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'Work.Locked',
      detail: 'held elsewhere',
    });
    const { audit, updates } = recordingAudit();
    const outcome = await new JobRunner(
      new OwnerAnswering(async () => {
        throw remote;
      }),
      audit,
    ).dispatch(definition, execution(), caller);
    expect(outcome).toEqual({ error: remote, execution: expect.objectContaining({ status: 'failed', errorCode: 'Work.Locked' }) });
    expect(updates).toEqual([expect.objectContaining({ status: 'failed', errorCode: 'Work.Locked', detail: 'held elsewhere' })]);
  });

  it('turns no answer within the timeout into Job.Timeout (504), audited as a failure', async () => {
    const { audit } = recordingAudit();
    const outcome = await new JobRunner(
      new OwnerAnswering(async () => {
        throw new RpcTimeoutError('service.jobs.run', 12_000);
      }),
      audit,
    ).dispatch(definition, execution(), caller);
    expect('error' in outcome && outcome.error).toBeInstanceOf(JobRunTimeoutError);
    expect(outcome.execution).toEqual(expect.objectContaining({ status: 'failed', errorCode: 'Job.Timeout' }));
  });
});
