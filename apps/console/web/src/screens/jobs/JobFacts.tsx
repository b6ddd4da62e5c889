import { formatTime } from '../../ui/kit';
import { durationText } from './cron';
import type { ExecutionStatus, JobEntry } from './jobs-api';

/** Enabled is the automatic-schedule switch: started (on) or stopped (off). */
export function StateBadge({ enabled }: { enabled: boolean }) {
  return <span className={enabled ? 'job-state job-state-started' : 'job-state job-state-stopped'}>{enabled ? 'Started' : 'Stopped'}</span>;
}

export function StatusBadge({ status }: { status: ExecutionStatus }) {
  return <span className={`job-status job-status-${status}`}>{status}</span>;
}

/** The next tick, or why there is none (stopped: the API answers null while disabled). */
export function NextRun({ job }: { job: JobEntry }) {
  if (!job.enabled) return <span className="jobs-muted">none (stopped)</span>;
  return <>{formatTime(job.nextRunAt)}</>;
}

export function LastRun({ run }: { run: JobEntry['lastRun'] }) {
  if (!run) return <span className="jobs-muted">never</span>;
  return (
    <>
      <StatusBadge status={run.status} /> {formatTime(run.startedAt)}
      {run.errorCode && (
        <div>
          <code>{run.errorCode}</code>
        </div>
      )}
    </>
  );
}

/** How long a run took; a running one counts up to now. */
export function durationOf(startedAt: string, finishedAt: string | null, now = Date.now()): string {
  const end = finishedAt ? Date.parse(finishedAt) : now;
  const text = durationText(end - Date.parse(startedAt));
  return finishedAt ? text : `${text} so far`;
}
