import { Link } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, ProblemMessage } from '../../ui/kit';
import { describeSchedule, scheduleOf } from './cron';
import { ExecutionHistory } from './ExecutionHistory';
import { JobActions, RunConfirmation, RunOutcome } from './JobActions';
import { LastRun, NextRun, StateBadge } from './JobFacts';
import { MANAGE, useJob, useRunNow } from './jobs-api';
import { NextRuns } from './NextRuns';
import { ScheduleEditor } from './ScheduleEditor';

/**
 * One job: its facts, its controls (for `operations.jobs.manage`), its schedule editor and its
 * execution history (`GET /jobs/{jobName}`; a retired job's runs stay readable).
 */
export function JobDetail({ jobName, confirmRun }: { jobName: string; confirmRun: boolean }) {
  const { canAny } = useSession();
  const canManage = canAny([MANAGE]);
  const found = useJob(jobName);
  const run = useRunNow(jobName);
  const job = found.data ?? undefined;
  const current = job ? scheduleOf(job.cronExpression) : undefined;

  return (
    <section aria-labelledby="job-title">
      <p>
        <Link to="/jobs">All jobs</Link>
      </p>
      <h2 id="job-title">{jobName}</h2>
      <ProblemMessage error={found.error} title="The job could not be read" />
      {found.isPending && <Busy label="Loading the job…" />}
      {found.data === null && (
        <p className="notice" role="note">
          No job named <code>{jobName}</code> is in the fleet&apos;s catalog (or it was retired). Its past runs, if any, are listed below.
        </p>
      )}
      {job && (
        <>
          <p>{job.description}</p>
          <dl className="job-facts">
            <dt>Service</dt>
            <dd>{job.source}</dd>
            <dt>Module</dt>
            <dd>{job.moduleName}</dd>
            <dt>Critical</dt>
            <dd>{job.isCritical ? 'yes' : 'no'}</dd>
            <dt>Schedule</dt>
            <dd>
              <code data-testid="job-schedule">{describeSchedule(job.cronExpression)}</code>
            </dd>
            <dt>Catalog default</dt>
            <dd>
              <code>{describeSchedule(job.catalogDefault.cronExpression)}</code>
            </dd>
            <dt>State</dt>
            <dd>
              <StateBadge enabled={job.enabled} />
            </dd>
            <dt>Next run</dt>
            <dd>
              <NextRun job={job} />
            </dd>
            <dt>Last run</dt>
            <dd>
              <LastRun run={job.lastRun} />
            </dd>
          </dl>
          {confirmRun && <RunConfirmation job={job} run={run} canManage={canManage} />}
          {canManage && !confirmRun && <JobActions job={job} run={run} />}
          <RunOutcome run={run} />
          {canManage ? (
            <ScheduleEditor job={job} />
          ) : (
            current?.kind === 'cron' && (
              <section aria-labelledby="schedule-title">
                <h3 id="schedule-title">Schedule</h3>
                <NextRuns cron={current.cron} />
              </section>
            )
          )}
        </>
      )}
      <ExecutionHistory jobName={jobName} runInFlight={run.isPending} highlight={run.data?.execution.executionId} />
    </section>
  );
}
