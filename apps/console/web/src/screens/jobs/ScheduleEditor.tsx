import { FormEvent, useState } from 'react';
import { asProblem } from '../../api/problem';
import { Busy, Field, ProblemMessage } from '../../ui/kit';
import { cronProblem, describeSchedule, MAX_CRON_LENGTH, scheduleOf } from './cron';
import { JobEntry, ScheduleChange, useSaveSchedule } from './jobs-api';
import { NextRuns } from './NextRuns';

type Kind = 'cron' | 'interval' | 'none';

interface Draft {
  kind: Kind;
  cron: string;
  interval: string;
}

function draftOf(cronExpression: string | null): Draft {
  const schedule = scheduleOf(cronExpression);
  return {
    kind: schedule.kind,
    cron: schedule.kind === 'cron' ? schedule.cron : '',
    interval: schedule.kind === 'interval' ? String(schedule.seconds) : '',
  };
}

/** The PUT body for a draft: the three runtime fields at once, keeping the job started or stopped as it is. */
function changeOf(draft: Draft, enabled: boolean): ScheduleChange {
  if (draft.kind === 'cron') return { cronExpression: draft.cron.trim(), intervalSeconds: null, enabled };
  if (draft.kind === 'interval') return { cronExpression: null, intervalSeconds: Number(draft.interval), enabled };
  return { cronExpression: null, intervalSeconds: null, enabled };
}

const KINDS: Array<{ kind: Kind; label: string }> = [
  { kind: 'cron', label: 'Cron expression' },
  { kind: 'interval', label: 'Interval' },
  { kind: 'none', label: 'No schedule' },
];

/**
 * Edit a job's schedule (`PUT /jobs/{jobName}`). The cron is judged as it is typed by the API's own
 * rules (cron.ts) and its next runs are listed live; on save the API decides, and its field errors
 * are shown next to the field they name.
 */
export function ScheduleEditor({ job }: { job: JobEntry }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(job.cronExpression));
  const save = useSaveSchedule(job.jobName);

  const edit = (next: Partial<Draft>) => {
    if (!save.isIdle) save.reset();
    setDraft((current) => ({ ...current, ...next }));
  };

  const cron = draft.cron.trim();
  const localCronProblem = draft.kind === 'cron' ? (cron === '' ? 'Type a cron expression.' : cronProblem(cron)) : null;
  const apiProblem = save.error ? asProblem(save.error) : undefined;
  const cronErrors = unique([...(apiProblem?.field('cronExpression') ?? []), ...(localCronProblem ? [localCronProblem] : [])]);
  const intervalValue = Number(draft.interval);
  const localIntervalProblem =
    draft.kind === 'interval' && !(Number.isSafeInteger(intervalValue) && intervalValue > 0) ? 'Type a whole number of seconds, 1 or more.' : null;
  const intervalErrors = unique([...(apiProblem?.field('intervalSeconds') ?? []), ...(localIntervalProblem ? [localIntervalProblem] : [])]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The API is the judge: even a draft this form finds wrong is sent, and the API's answer is shown.
    save.mutate(changeOf(draft, job.enabled));
  };

  const fallback = job.catalogDefault.cronExpression;
  return (
    <form className="schedule-editor" onSubmit={submit} aria-labelledby="schedule-editor-title" noValidate>
      <h3 id="schedule-editor-title">Edit schedule</h3>
      <fieldset className="schedule-kind">
        <legend>Kind of schedule</legend>
        {KINDS.map(({ kind, label }) => (
          <label key={kind}>
            <input type="radio" name="schedule-kind" value={kind} checked={draft.kind === kind} onChange={() => edit({ kind })} /> {label}
          </label>
        ))}
      </fieldset>

      {draft.kind === 'cron' && (
        <>
          <Field
            label="Cron expression (UTC)"
            errors={cronErrors}
            hint={`5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; at most ${MAX_CRON_LENGTH} characters. Read in UTC.`}
          >
            {(id, describedBy) => (
              <input
                id={id}
                className="cron-input"
                aria-describedby={describedBy}
                aria-invalid={cronErrors.length > 0}
                value={draft.cron}
                onChange={(event) => edit({ cron: event.target.value })}
                spellCheck={false}
                autoComplete="off"
              />
            )}
          </Field>
          <p className="visually-hidden" role="status">
            {localCronProblem ? 'The cron expression is not valid.' : 'The cron expression is valid; its next runs are listed.'}
          </p>
          {!localCronProblem && <NextRuns cron={cron} />}
        </>
      )}

      {draft.kind === 'interval' && (
        <Field label="Interval (seconds)" errors={intervalErrors} hint="Each run counts from the tick before it.">
          {(id, describedBy) => (
            <input
              id={id}
              type="number"
              min={1}
              step={1}
              aria-describedby={describedBy}
              aria-invalid={intervalErrors.length > 0}
              value={draft.interval}
              onChange={(event) => edit({ interval: event.target.value })}
            />
          )}
        </Field>
      )}

      {draft.kind === 'none' && <p className="jobs-muted">Without a schedule the job only runs when someone runs it now; a started job needs a schedule.</p>}

      <p className="jobs-muted">
        Saving replaces the schedule and keeps the job {job.enabled ? 'started' : 'stopped'}; Start and Stop switch that. Catalog default:{' '}
        <code>{describeSchedule(fallback)}</code>.
      </p>
      <div className="form-row">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save schedule'}
        </button>
        <button type="button" className="secondary" onClick={() => edit(draftOf(fallback))} disabled={save.isPending}>
          Use the catalog default
        </button>
        <button type="button" className="secondary" onClick={() => edit(draftOf(job.cronExpression))} disabled={save.isPending}>
          Undo changes
        </button>
      </div>
      {save.isPending && <Busy label="Saving the schedule…" />}
      <ProblemMessage error={save.error} title="The schedule was not saved" />
      {save.isSuccess && (
        <p className="success" role="status">
          Schedule saved: <code>{describeSchedule(save.data.cronExpression)}</code>.
        </p>
      )}
    </form>
  );
}

function unique(messages: string[]): string[] {
  return [...new Set(messages)];
}
