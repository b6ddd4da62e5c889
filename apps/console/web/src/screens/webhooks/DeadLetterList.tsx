import { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { asProblem } from '../../api/problem';
import { useSyncedDraft } from '../../ui/use-synced-draft';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { answerText, pageParam, ShortId } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { DeadLetterFilter, useDeadLetterPage } from './queries';
import { useReplay } from './useReplay';

const REASONS: Record<string, string> = { RetriesExhausted: 'Retries used up', SubscriptionGone: 'Receiver answered 410 Gone' };

export function reasonText(reason: string): string {
  return REASONS[reason] ?? reason;
}

/** Deliveries whose retries ran out, a page at a time; each can be replayed (once). */
export function DeadLetterList() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const replayedParam = params.get('replayed');
  const filter: DeadLetterFilter = {
    pageIndex: pageParam(params.get('page')),
    replayed: replayedParam === 'true' || replayedParam === 'false' ? replayedParam : undefined,
    subscriptionId: params.get('subscriptionId') ?? undefined,
  };
  const applied = { replayed: filter.replayed ?? '', subscriptionId: filter.subscriptionId ?? '' };
  // The fields follow the address when it changes under them (a link, a tab, the back button).
  const [draft, setDraft] = useSyncedDraft(applied, params.toString());
  const page = useDeadLetterPage(filter);
  const problem = page.error ? asProblem(page.error) : undefined;
  const replay = useReplay();
  const canReplay = session.canAny([WEBHOOK_PERMISSIONS.deadLetterManage]);
  const canViewSubscriptions = session.canAny([WEBHOOK_PERMISSIONS.view]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.replayed) next.set('replayed', draft.replayed);
    if (draft.subscriptionId.trim()) next.set('subscriptionId', draft.subscriptionId.trim());
    setParams(next);
  };
  const goTo = (pageIndex: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(pageIndex));
      return next;
    });

  return (
    <section aria-labelledby="wh-dead-letters">
      <h2 id="wh-dead-letters">Dead letters</h2>
      <p className="field-help">
        A delivery is dead-lettered when its retries are used up or its receiver answers 410 Gone. Replay sends the same delivery (same delivery id) again, with
        a fresh retry budget; each dead letter can be replayed once.
      </p>
      <form className="form-row wh-filters" onSubmit={apply} aria-label="Filter dead letters">
        <Field label="Replayed">
          {(id) => (
            <select id={id} value={draft.replayed} onChange={(event) => setDraft({ ...draft, replayed: event.target.value })}>
              <option value="">All</option>
              <option value="false">Not replayed</option>
              <option value="true">Replayed</option>
            </select>
          )}
        </Field>
        <Field label="Subscription id" errors={problem?.field('subscriptionId')}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={(problem?.field('subscriptionId').length ?? 0) > 0}
              size={38}
              spellCheck={false}
              value={draft.subscriptionId}
              onChange={(event) => setDraft({ ...draft, subscriptionId: event.target.value })}
            />
          )}
        </Field>
        <div className="field wh-filter-submit">
          <button type="submit" className="secondary">
            Apply filters
          </button>
        </div>
      </form>
      {replay.isSuccess ? (
        <div className="success" role="status">
          <strong>Replayed.</strong> Delivery <code>{replay.data.deliveryId}</code> ({replay.data.eventType}) is pending again, due now.{' '}
          <Link to={`/webhooks/dead-letters/${replay.data.id}`}>Follow it</Link>
        </div>
      ) : null}
      <ProblemMessage error={replay.error} title="Not replayed" />
      {page.isFetching ? <Busy label="Loading dead letters…" /> : null}
      <ProblemMessage error={page.error} />
      {page.data ? (
        page.data.items.length === 0 ? (
          <p className="notice">
            No dead letter{filter.replayed || filter.subscriptionId ? ' matches these filters' : ': every delivery got through or is still being tried'}.
          </p>
        ) : (
          <table>
            <caption className="wh-caption">Dead letters, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Died</th>
                <th scope="col">Event type</th>
                <th scope="col">Subscription</th>
                <th scope="col">Reason</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Replayed</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((deadLetter) => (
                <tr key={deadLetter.id}>
                  <td>{formatTime(deadLetter.createdAt)}</td>
                  <td>
                    <code>{deadLetter.eventType}</code>
                    <br />
                    <small>
                      delivery <ShortId id={deadLetter.deliveryId} />
                    </small>
                  </td>
                  <td>
                    {canViewSubscriptions ? (
                      <Link to={`/webhooks/subscriptions/${deadLetter.subscriptionId}`} aria-label={`Subscription ${deadLetter.subscriptionId}`}>
                        <ShortId id={deadLetter.subscriptionId} />
                      </Link>
                    ) : (
                      <ShortId id={deadLetter.subscriptionId} />
                    )}
                  </td>
                  <td>{reasonText(deadLetter.reason)}</td>
                  <td>{deadLetter.attempts}</td>
                  <td>
                    {answerText(deadLetter.lastStatusCode)}
                    {deadLetter.lastError ? <div className="field-help">{deadLetter.lastError}</div> : null}
                  </td>
                  <td>{deadLetter.replayedAt ? `${formatTime(deadLetter.replayedAt)} by ${deadLetter.replayedBy ?? '?'}` : 'No'}</td>
                  <td>
                    <div className="wh-row-actions">
                      <Link to={`/webhooks/dead-letters/${deadLetter.id}`} aria-label={`Details of the dead letter of delivery ${deadLetter.deliveryId}`}>
                        Details
                      </Link>
                      {canReplay ? (
                        <button
                          type="button"
                          className="secondary wh-small"
                          disabled={replay.isPending}
                          aria-label={`Replay delivery ${deadLetter.deliveryId}`}
                          onClick={() => replay.mutate(deadLetter)}
                        >
                          {replay.isPending && replay.variables?.id === deadLetter.id ? 'Replaying…' : 'Replay'}
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Pager page={page.data} onPage={goTo} label="Dead letters" />
    </section>
  );
}
