import { Link } from 'react-router';
import type { UseMutationResult } from '@tanstack/react-query';
import { Busy, ProblemMessage } from '../../ui/kit';
import { durationOf, StateBadge } from './JobFacts';
import { JobEntry, ManualRun, useSetEnabled } from './jobs-api';

export type RunMutation = UseMutationResult<ManualRun, Error, void>;

/** Start / stop (the automatic-schedule switch) and run now, for a user who holds `operations.jobs.manage`. */
export function JobActions({ job, run }: { job: JobEntry; run: RunMutation }) {
  const toggle = useSetEnabled(job.jobName);
  return (
    <section className="job-actions" aria-labelledby="job-actions-title">
      <h3 id="job-actions-title">Control</h3>
      <div className="form-row">
        <span>
          State: <StateBadge enabled={job.enabled} />
        </span>
        <button type="button" className={job.enabled ? 'danger' : undefined} onClick={() => toggle.mutate(!job.enabled)} disabled={toggle.isPending}>
          {toggle.isPending ? (job.enabled ? 'Stopping…' : 'Starting…') : job.enabled ? 'Stop' : 'Start'}
        </button>
        <RunButton run={run} />
      </div>
      {toggle.isPending && <Busy label={job.enabled ? 'Stopping the schedule…' : 'Starting the schedule…'} />}
      <ProblemMessage error={toggle.error} title={toggle.variables ? 'The job was not started' : 'The job was not stopped'} />
    </section>
  );
}

export function RunButton({ run }: { run: RunMutation }) {
  return (
    <button type="button" className="secondary" onClick={() => run.mutate()} disabled={run.isPending}>
      {run.isPending ? 'Running…' : 'Run now'}
    </button>
  );
}

/**
 * The address `/jobs/{jobName}/run`: a deliberate request to run the job once, shown to whoever opens
 * it (the API decides, and its 403 is shown). Nothing runs until the button is pressed.
 */
export function RunConfirmation({ job, run, canManage }: { job: JobEntry; run: RunMutation; canManage: boolean }) {
  return (
    <section className="notice run-confirmation" aria-labelledby="run-confirmation-title">
      <h3 id="run-confirmation-title">Run {job.jobName} now?</h3>
      <p>It runs once, now, whether the job is started or stopped; its schedule does not change.</p>
      {!canManage && <p>You do not hold operations.jobs.manage: the platform will most likely refuse.</p>}
      <div className="form-row">
        <RunButton run={run} />
        <Link to={`/jobs/${encodeURIComponent(job.jobName)}`}>Back to the job</Link>
      </div>
    </section>
  );
}

/** The run request in flight, then its outcome: the owner's result, or the API's problem. */
export function RunOutcome({ run }: { run: RunMutation }) {
  if (run.isPending) return <Busy label="Running the job: the history below follows it…" />;
  if (run.error) return <ProblemMessage error={run.error} title="The job was not run" />;
  if (!run.data) return null;
  const { execution } = run.data;
  const took = durationOf(execution.startedAt, execution.finishedAt);
  if (run.data.status === 'succeeded') {
    return (
      <p className="success" role="status">
        Run finished: succeeded in {took}.
      </p>
    );
  }
  return (
    <div className="problem" role="alert">
      <strong>Run finished: {run.data.status}</strong>
      {run.data.detail && <p className="problem-detail">{run.data.detail}</p>}
      <small>
        {run.data.errorCode ?? 'no error code'} · {took}
      </small>
    </div>
  );
}
