import { Link, useSearchParams } from 'react-router';
import type { Page } from '../../api/client';
import { Busy, Field, Pager, ProblemMessage } from '../../ui/kit';
import { describeSchedule } from './cron';
import { JobEntry, useJobs } from './jobs-api';
import { LastRun, NextRun, StateBadge } from './JobFacts';

const PAGE_SIZE = 15;

/**
 * The fleet's jobs: schedule, state, next and last run. `GET /jobs` answers the whole sorted list
 * (the route is not paged), so the screen pages it here; the filter and the page live in the address.
 */
export function JobList() {
  const jobs = useJobs();
  const [params, setParams] = useSearchParams();
  const filter = params.get('q') ?? '';
  const pageIndex = Math.max(0, Number(params.get('page') ?? 0) || 0);

  const update = (next: { q?: string; page?: number }) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next.q !== undefined) {
          copy.delete('page');
          if (next.q) copy.set('q', next.q);
          else copy.delete('q');
        }
        if (next.page !== undefined) {
          if (next.page > 0) copy.set('page', String(next.page));
          else copy.delete('page');
        }
        return copy;
      },
      { replace: next.q !== undefined },
    );

  const needle = filter.trim().toLowerCase();
  const matching = (jobs.data ?? []).filter((job) => !needle || [job.jobName, job.source, job.description].some((text) => text.toLowerCase().includes(needle)));
  const lastPage = Math.max(0, Math.ceil(matching.length / PAGE_SIZE) - 1);
  const shown = Math.min(pageIndex, lastPage);
  const page: Page<JobEntry> = {
    items: matching.slice(shown * PAGE_SIZE, (shown + 1) * PAGE_SIZE),
    pageIndex: shown,
    pageSize: PAGE_SIZE,
    totalCount: matching.length,
  };

  return (
    <section aria-labelledby="jobs-list-title">
      <h2 id="jobs-list-title" className="visually-hidden">
        Job list
      </h2>
      <div className="form-row">
        <Field label="Filter jobs" hint="By name, service or description.">
          {(id, describedBy) => (
            <input id={id} aria-describedby={describedBy} type="search" value={filter} onChange={(event) => update({ q: event.target.value })} />
          )}
        </Field>
      </div>
      <ProblemMessage error={jobs.error} title="The jobs could not be read" />
      {jobs.isPending && <Busy label="Loading the jobs…" />}
      {jobs.data && (
        <>
          <table className="jobs-table">
            <caption className="visually-hidden">Background jobs of the fleet</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Service</th>
                <th scope="col">Schedule</th>
                <th scope="col">State</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((job) => (
                <tr key={job.jobName}>
                  <th scope="row">
                    <Link to={encodeURIComponent(job.jobName)}>{job.jobName}</Link>
                    {job.isCritical && <span className="jobs-critical"> critical</span>}
                    <div className="jobs-description">{job.description}</div>
                  </th>
                  <td>{job.source}</td>
                  <td>
                    <code>{describeSchedule(job.cronExpression)}</code>
                  </td>
                  <td>
                    <StateBadge enabled={job.enabled} />
                  </td>
                  <td>
                    <NextRun job={job} />
                  </td>
                  <td>
                    <LastRun run={job.lastRun} />
                  </td>
                </tr>
              ))}
              {page.items.length === 0 && (
                <tr>
                  <td colSpan={6}>{needle ? 'No job matches the filter.' : 'The fleet declares no job.'}</td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager page={page} onPage={(index) => update({ page: index })} label="Jobs" />
        </>
      )}
    </section>
  );
}
