import { JobRunResult } from '@lp/contracts';
import { declareJob } from './job-declaration';
import { JobBinding, JobDispatchClosureError, JobDispatcher, JobNotBoundError } from './job-dispatcher';
import { JobRunContext } from './job-handler';

const job = (name: string, service = 'svc') => declareJob({ service, name, description: `${name} work`, moduleName: 'WorkModule', schedule: null });
const bind = (jobName: string, boundBy: string, run: JobBinding['run'] = async () => undefined): JobBinding => ({ jobName, run, boundBy });
const context = (jobName: string): JobRunContext => ({ jobName, trigger: 'manual', executionId: '00000000-0000-4000-8000-000000000001', now: new Date() });

/** The closure error of building the dispatcher, or a failure when it builds. */
function closureError(...args: ConstructorParameters<typeof JobDispatcher>): JobDispatchClosureError {
  try {
    new JobDispatcher(...args);
  } catch (error) {
    if (error instanceof JobDispatchClosureError) return error;
    throw error;
  }
  throw new Error('the dispatcher accepted a broken closure');
}

describe('JobDispatcher', () => {
  it('refuses a job bound twice, naming the job and both bindings', () => {
    const error = closureError('svc', [job('purge')], [bind('svc.purge', 'A.run'), bind('svc.purge', 'B.run')]);
    expect(error.service).toBe('svc');
    expect(error.problems).toEqual(['svc.purge has 2 bindings: A.run, B.run']);
    expect(error.message).toContain('Job dispatcher of svc refused its bindings');
  });

  it('refuses a catalog entry without a binding, naming it', () => {
    expect(closureError('svc', [job('purge'), job('sweep')], [bind('svc.purge', 'A.run')]).problems).toEqual([
      'svc.sweep is in the catalog but has no binding',
    ]);
  });

  it('refuses a binding absent from the catalog, naming it and who bound it', () => {
    expect(closureError('svc', [job('purge')], [bind('svc.purge', 'A.run'), bind('svc.stray', 'Stray.run')]).problems).toEqual([
      'svc.stray is bound by Stray.run but absent from the catalog',
    ]);
  });

  it('refuses an entry declared twice or declared by another service', () => {
    expect(
      closureError('svc', [job('purge'), job('purge'), job('other', 'elsewhere')], [bind('svc.purge', 'A.run'), bind('elsewhere.other', 'B.run')]).problems,
    ).toEqual(['svc.purge is declared twice in the catalog', 'elsewhere.other is declared with source elsewhere, not svc']);
  });

  it('lists every problem at once, so one boot shows the whole closure', () => {
    const error = closureError('svc', [job('a'), job('b')], [bind('svc.a', 'X.a'), bind('svc.a', 'Y.a'), bind('svc.c', 'Z.c')]);
    expect(error.problems).toEqual([
      'svc.a has 2 bindings: X.a, Y.a',
      'svc.c is bound by Z.c but absent from the catalog',
      'svc.b is in the catalog but has no binding',
    ]);
  });

  it('runs a job by its name and turns what the binding answers into a result', async () => {
    const seen: JobRunContext[] = [];
    const dispatcher = new JobDispatcher(
      'svc',
      [job('quiet'), job('chatty'), job('failing'), job('throwing')],
      [
        bind('svc.quiet', 'Q.run', async (c) => void seen.push(c)),
        bind('svc.chatty', 'C.run', async () => '3 rows'),
        bind('svc.failing', 'F.run', async (): Promise<JobRunResult> => ({ status: 'failed', errorCode: 'Work.Blocked', detail: 'no broker' })),
        bind('svc.throwing', 'T.run', async () => {
          throw new Error('boom');
        }),
      ],
    );
    expect(dispatcher.has('svc.quiet')).toBe(true);
    expect(dispatcher.has('svc.nothing')).toBe(false);
    const before = Date.now();
    const quiet = await dispatcher.run(context('svc.quiet'));
    expect(quiet).toEqual({ status: 'succeeded', startedAt: expect.any(String) });
    // When the binding started, as the owner saw it: what the scheduler's lateness is measured to.
    expect(Date.parse(quiet.startedAt ?? '')).toBeGreaterThanOrEqual(before);
    expect(seen.map((c) => c.jobName)).toEqual(['svc.quiet']);
    await expect(dispatcher.run(context('svc.chatty'))).resolves.toEqual({ status: 'succeeded', detail: '3 rows', startedAt: expect.any(String) });
    await expect(dispatcher.run(context('svc.failing'))).resolves.toEqual({
      status: 'failed',
      errorCode: 'Work.Blocked',
      detail: 'no broker',
      startedAt: expect.any(String),
    });
    await expect(dispatcher.run(context('svc.throwing'))).rejects.toThrow('boom');
    await expect(dispatcher.run(context('svc.unknown'))).rejects.toBeInstanceOf(JobNotBoundError);
  });

  it('accepts an empty catalog with no bindings', () => {
    expect(new JobDispatcher('svc', [], []).has('svc.anything')).toBe(false);
  });
});
