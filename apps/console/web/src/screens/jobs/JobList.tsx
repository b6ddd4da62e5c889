import { Link, useSearchParams } from 'react-router';
import { Busy, Field, Pager, ProblemMessage } from '../../ui/kit';
import { describeSchedule } from './cron';
import { JobFilter, LastRunFilter, useJobPage } from './jobs-api';
import { LastRun, NextRun, StateBadge } from './JobFacts';

const LAST_RUN_CHOICES: Array<[LastRunFilter | '', string]> = [
  ['', 'Any'],
  ['succeeded', 'Succeeded'],
  ['failed', 'Failed'],
  ['running', 'Running'],
  ['skipped', 'Skipped'],
  ['abandoned', 'Abandoned'],
  ['none', 'Never ran'],
];
const STATE_CHOICES: Array<['' | 'true' | 'false', string]> = [
  ['', 'Any'],
  ['true', 'Started'],
  ['false', 'Stopped'],
];

/** The list's filter as its address keeps it (`q`, `state`, `last`, `page`). */
function filterOf(params: URLSearchParams): JobFilter {
  const state = params.get('state');
  const last = params.get('last') as LastRunFilter | null;
  return {
    pageIndex: Math.max(0, Number(params.get('page') ?? 0) || 0),
    search: params.get('q')?.trim() || undefined,
    enabled: state === 'true' ? true : state === 'false' ? false : undefined,
    lastRunStatus: LAST_RUN_CHOICES.some(([value]) => value !== '' && value === last) ? (last ?? undefined) : undefined,
  };
}

/** The fleet's jobs: schedule, state, next and last run; paged and filtered by the API, the filters in the address. */
export function JobList() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const jobs = useJobPage(filter);
  const text = params.get('q') ?? '';

  const update = (name: 'q' | 'state' | 'last' | 'page', value: string) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (name !== 'page') copy.delete('page');
        if (value && value !== '0') copy.set(name, value);
        else copy.delete(name);
        return copy;
      },
      { replace: name === 'q' },
    );
  const filtered = filter.search !== undefined || filter.enabled !== undefined || filter.lastRunStatus !== undefined;

  return (
    <section aria-labelledby="jobs-list-title">
      <h2 id="jobs-list-title" className="visually-hidden">
        Job list
      </h2>
      <div className="form-row">
        {/* No hint under a field of this row: the row aligns the fields' bottoms, a hint would lift its input above the others. */}
        <Field label="Filter jobs">
          {(id) => <input id={id} type="search" placeholder="Name or description" value={text} onChange={(event) => update('q', event.target.value)} />}
        </Field>
        <Field label="State">
          {(id) => (
            <select id={id} value={params.get('state') ?? ''} onChange={(event) => update('state', event.target.value)}>
              {STATE_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Last run">
          {(id) => (
            <select id={id} value={filter.lastRunStatus ?? ''} onChange={(event) => update('last', event.target.value)}>
              {LAST_RUN_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
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
              {jobs.data.items.map((job) => (
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
              {jobs.data.items.length === 0 && (
                <tr>
                  <td colSpan={6}>{filtered ? 'No job matches the filter.' : 'The fleet declares no job.'}</td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager page={jobs.data} onPage={(index) => update('page', String(index))} label="Jobs" />
        </>
      )}
    </section>
  );
}
