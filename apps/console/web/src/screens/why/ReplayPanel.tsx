import { FormEvent, useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { asProblem } from '../../api/problem';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { outcomeClass } from './DecisionPanel';
import { PolicyOverlay, whyLink } from './question';
import { pageOf, REPLAY, ReplayFlip, ReplayResult } from './simulation-api';

const PAGE_SIZE = 10;

function resourceText(resource: Record<string, unknown>): string {
  const base = `${String(resource.module ?? '?')}/${String(resource.resourceType ?? '?')}`;
  return typeof resource.resourceId === 'string' && resource.resourceId ? `${base} #${resource.resourceId}` : base;
}

/** The question of an audited request with the proposed changes, for the Why? link (facts as recorded). */
function flipLink(flip: ReplayFlip, overlay: PolicyOverlay): string {
  const fact = (key: string) => (flip.resource[key] === undefined || flip.resource[key] === null ? '' : String(flip.resource[key]));
  return whyLink(
    {
      subject: flip.subject,
      action: flip.action,
      module: fact('module'),
      resourceType: fact('resourceType'),
      resourceId: fact('resourceId'),
      status: fact('status'),
      amount: fact('amount'),
      sensitivity: fact('sensitivity'),
      owner: fact('owner'),
      officeId: fact('officeId'),
    },
    overlay,
  );
}

/**
 * "Which recent decisions would these changes flip?": the replay route re-decides the tenant's newest
 * audited decisions without and with the proposed changes and lists those whose outcome differs.
 */
export function ReplayPanel({ overlay }: { overlay: PolicyOverlay }) {
  const { api } = useSession();
  const [sample, setSample] = useState('100');
  const [pageIndex, setPageIndex] = useState(0);
  const headingId = useId();
  const replay = useMutation({
    mutationFn: (size: string) => api.post<ReplayResult>(REPLAY, { overlay, sample: Number(size) }),
    onSuccess: () => setPageIndex(0),
  });
  const problem = replay.error ? asProblem(replay.error) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    replay.mutate(sample);
  };
  const page = replay.data ? pageOf(replay.data.flipped, pageIndex, PAGE_SIZE) : undefined;

  return (
    <section className="why-replay" aria-labelledby={headingId}>
      <h2 id={headingId}>Which recent decisions would flip?</h2>
      <p className="why-meaning">The tenant&apos;s newest audited decisions are decided again without and with the proposed changes.</p>
      <form onSubmit={submit} noValidate aria-label="Replay recent decisions">
        <div className="form-row">
          <Field label="Decisions to replay (1 to 500)" errors={problem?.field('sample') ?? []}>
            {(id, describedBy) => (
              <input id={id} aria-describedby={describedBy} type="number" min={1} max={500} value={sample} onChange={(e) => setSample(e.target.value)} />
            )}
          </Field>
          <div className="field">
            <button type="submit" className="secondary" disabled={replay.isPending}>
              {replay.isPending ? 'Replaying…' : 'Replay with the proposed changes'}
            </button>
          </div>
        </div>
      </form>
      {replay.isPending ? <Busy label="Replaying decisions…" /> : null}
      <ProblemMessage error={replay.error} />
      {replay.data && page ? (
        <>
          <p role="status">
            Replayed {replay.data.replayed}, skipped {replay.data.skipped}: {replay.data.flipped.length} would flip.
          </p>
          {page.items.length > 0 ? (
            <table>
              <caption>Decisions the proposed changes would flip</caption>
              <thead>
                <tr>
                  <th scope="col">Decided</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Recorded</th>
                  <th scope="col">Now</th>
                  <th scope="col">With changes</th>
                  <th scope="col">Question</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((flip) => (
                  <tr key={flip.decisionId}>
                    <td>{formatTime(flip.decidedAt)}</td>
                    <td>
                      {flip.subject}
                      {flip.actor ? ` (by ${flip.actor})` : ''}
                      {flip.callerKind !== 'user' ? ` · ${flip.callerKind}` : ''}
                    </td>
                    <td>{flip.action}</td>
                    <td>{resourceText(flip.resource)}</td>
                    <td className={outcomeClass(flip.recorded)}>{flip.recorded}</td>
                    <td className={outcomeClass(flip.before)}>{flip.before}</td>
                    <td className={outcomeClass(flip.after)}>{flip.after}</td>
                    <td>
                      <Link to={flipLink(flip, overlay)}>Ask why</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <Pager page={page} onPage={setPageIndex} label="Flipped decisions" />
        </>
      ) : null}
    </section>
  );
}
