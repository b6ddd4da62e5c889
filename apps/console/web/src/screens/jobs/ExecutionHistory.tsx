import { useSearchParams } from 'react-router';
import { Busy, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { durationOf, StatusBadge } from './JobFacts';
import { useJobExecutions } from './jobs-api';

const PAGE_SIZE = 10;

/**
 * A job's execution audit (`GET /jobs/{jobName}/executions`), newest first, paged by the API. It is
 * read again every second while a run on the page is going or this console's run is in flight.
 */
export function ExecutionHistory({ jobName, runInFlight, highlight }: { jobName: string; runInFlight: boolean; highlight?: string }) {
  const [params, setParams] = useSearchParams();
  const pageIndex = Math.max(0, Number(params.get('runs') ?? 0) || 0);
  const executions = useJobExecutions(jobName, pageIndex, PAGE_SIZE, runInFlight);
  const running = executions.data?.items.some((run) => run.status === 'running') ?? false;

  const turn = (index: number) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (index > 0) copy.set('runs', String(index));
      else copy.delete('runs');
      return copy;
    });

  return (
    <section aria-labelledby="history-title">
      <h3 id="history-title">Execution history</h3>
      <ProblemMessage error={executions.error} title="The execution history could not be read" />
      {executions.isPending && <Busy label="Loading the execution history…" />}
      {running && <Busy label="A run is going: the history refreshes every second." />}
      {executions.data && (
        <>
          <table className="history-table">
            <caption className="visually-hidden">Executions of {jobName}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Trigger</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col">Duration</th>
                <th scope="col">Triggered by</th>
                <th scope="col">Error or result</th>
              </tr>
            </thead>
            <tbody>
              {executions.data.items.map((run) => (
                <tr key={run.executionId} className={run.executionId === highlight ? 'history-new' : undefined} data-execution-id={run.executionId}>
                  <td>
                    <StatusBadge status={run.status} />
                  </td>
                  <td>
                    {run.trigger === 'schedule' ? 'schedule' : 'run now'}
                    {run.scheduledFor && <div className="jobs-muted">tick {formatTime(run.scheduledFor)}</div>}
                  </td>
                  <td>{formatTime(run.startedAt)}</td>
                  <td>{formatTime(run.finishedAt)}</td>
                  <td>{durationOf(run.startedAt, run.finishedAt)}</td>
                  <td>{run.actor}</td>
                  <td>
                    {run.errorCode && <code>{run.errorCode}</code>}
                    {run.detail && <div className={run.errorCode ? 'history-detail history-error' : 'history-detail'}>{run.detail}</div>}
                    {!run.errorCode && !run.detail && '—'}
                  </td>
                </tr>
              ))}
              {executions.data.items.length === 0 && (
                <tr>
                  <td colSpan={7}>{pageIndex === 0 ? 'This job has not run yet.' : 'No runs on this page.'}</td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager page={executions.data} onPage={turn} label="Execution history" />
        </>
      )}
    </section>
  );
}
