import { formatTime } from '../../ui/kit';
import { nextRuns, utcText } from './cron';

export const NEXT_RUN_COUNT = 5;

/**
 * The next ticks of a cron the API accepts, as the scheduler computes them (UTC), with the reader's
 * local time beside each. Rendered only for an expression `cronProblem` found nothing wrong with.
 */
export function NextRuns({ cron, from = new Date() }: { cron: string; from?: Date }) {
  const result = nextRuns(cron, NEXT_RUN_COUNT, from);
  if ('problem' in result) {
    return (
      <p className="jobs-muted" role="status">
        No next run can be computed: {result.problem}
      </p>
    );
  }
  return (
    <section className="next-runs" aria-labelledby="next-runs-title">
      <h4 id="next-runs-title">Next {result.runs.length === NEXT_RUN_COUNT ? NEXT_RUN_COUNT : result.runs.length} runs</h4>
      {result.runs.length === 0 ? (
        <p className="jobs-muted">This expression never fires again.</p>
      ) : (
        <ol aria-label="Next run times">
          {result.runs.map((run) => (
            <li key={run.getTime()}>
              <time dateTime={run.toISOString()}>{utcText(run)}</time> <span className="jobs-muted">({formatTime(run.toISOString())} your time)</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
