import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Page } from '../../api/client';
import { useSession } from '../../api/session';
import { Busy, Field, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { answerText, DeliveryStatusBadge, OutcomeBadge, pageParam, ShortId, STATUS_LABELS } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { useDelivery, useDeliveryPage, WEBHOOKS } from './queries';
import { Delivery, DeliveryAttempt, DeliveryStatus, DELIVERY_STATUSES } from './types';

const EXCERPT = 120;
const COLUMNS = 7;

/**
 * A subscription's delivery log: its deliveries (`GET /api/webhooks/deliveries?subscriptionId=`,
 * newest first), each with where it stands and its attempts, newest first; or one delivery (`?delivery=`).
 * While one of them is underway the page looks again.
 */
export function DeliveryLog({ subscriptionId }: { subscriptionId: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const pageIndex = pageParam(params.get('logPage'));
  const only = params.get('delivery') ?? undefined;
  const statusParam = params.get('status') as DeliveryStatus | null;
  const status = statusParam && DELIVERY_STATUSES.includes(statusParam) ? statusParam : undefined;
  const page = useDeliveryPage(subscriptionId, pageIndex, status);
  const one = useDelivery(only);
  const shown: Delivery[] = only ? (one.data ? [one.data] : []) : (page.data?.items ?? []);
  // The indicator is for loads someone waits for (the first, a Refresh), not for the quiet polling.
  const [refreshing, setRefreshing] = useState(false);
  const fetching = (only ? one.isPending : page.isPending) || refreshing;
  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.invalidateQueries({ queryKey: [...WEBHOOKS] });
    } finally {
      setRefreshing(false);
    }
  };

  const setParam = (name: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === undefined || value === '') next.delete(name);
        else next.set(name, value);
        if (name !== 'logPage') next.delete('logPage');
        return next;
      },
      { preventScrollReset: true },
    );

  return (
    <section aria-labelledby="wh-log" className="wh-log">
      <div className="wh-heading">
        <h3 id="wh-log">Delivery log</h3>
        <button type="button" className="secondary" disabled={refreshing} onClick={() => void refresh()} aria-describedby="wh-log-help">
          Refresh
        </button>
      </div>
      <p id="wh-log-help" className="field-help">
        Every delivery, newest first, with its attempts: a delivery is one event for this subscription, attempted until the receiver answers 2xx or its retries
        run out.
      </p>
      {only ? (
        <p className="notice">
          Only delivery <code>{only}</code>.{' '}
          <button type="button" className="secondary" onClick={() => setParam('delivery', undefined)}>
            Show every delivery
          </button>
        </p>
      ) : (
        <div className="form-row">
          <Field label="Status">
            {(id) => (
              <select id={id} value={status ?? ''} onChange={(event) => setParam('status', event.target.value)}>
                <option value="">Any</option>
                {DELIVERY_STATUSES.map((value) => (
                  <option key={value} value={value}>
                    {STATUS_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}
      {fetching ? <Busy label="Loading the delivery log…" /> : null}
      <ProblemMessage error={only ? one.error : page.error} title="The delivery log could not be read" />
      {!only && page.data && page.data.items.length === 0 ? (
        <p className="notice">{status ? 'No delivery has this status.' : 'No delivery yet: send a ping, or wait for an event this subscription receives.'}</p>
      ) : null}
      {shown.length > 0 ? (
        <table className="wh-log-table">
          <caption className="wh-caption">Delivery attempts, grouped by delivery, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Time</th>
              <th scope="col">Outcome</th>
              <th scope="col">Answer</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
              <th scope="col">Response body</th>
            </tr>
          </thead>
          {shown.map((delivery) => (
            <tbody key={delivery.id} className="wh-delivery">
              <tr>
                <th scope="rowgroup" colSpan={COLUMNS} className="wh-delivery-head">
                  <DeliveryHeading
                    delivery={delivery}
                    canViewDeadLetters={session.canAny([WEBHOOK_PERMISSIONS.deadLetterView])}
                    onOnly={only ? undefined : () => setParam('delivery', delivery.id)}
                  />
                </th>
              </tr>
              {[...delivery.attemptLog].reverse().map((attempt) => (
                <AttemptRow key={attempt.id} attempt={attempt} />
              ))}
            </tbody>
          ))}
        </table>
      ) : null}
      {only ? null : <Pager page={page.data as Page<unknown> | undefined} onPage={(index) => setParam('logPage', String(index))} label="Delivery log" />}
    </section>
  );
}

function DeliveryHeading({ delivery, canViewDeadLetters, onOnly }: { delivery: Delivery; canViewDeadLetters: boolean; onOnly?: () => void }) {
  const earlier = delivery.attempts - delivery.attemptLog.length;
  return (
    <div className="wh-delivery-line">
      <span>
        <code>{delivery.eventType}</code>
        {delivery.kind === 'ping' ? ' (ping)' : ''}
      </span>
      <span>
        Delivery <ShortId id={delivery.id} />
      </span>
      <DeliveryStatusBadge status={delivery.status} />
      <span>
        {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        {earlier > 0 ? ` (the first ${earlier} not shown)` : ''}
      </span>
      {delivery.status === 'pending' || delivery.status === 'retrying' ? <span>next attempt {formatTime(delivery.nextAttemptAt)}</span> : null}
      {delivery.completedAt ? <span>ended {formatTime(delivery.completedAt)}</span> : null}
      {delivery.status === 'dead' && canViewDeadLetters ? (
        <Link to={`/webhooks/dead-letters?subscriptionId=${delivery.subscriptionId}`}>Dead letters</Link>
      ) : null}
      {onOnly ? (
        <button type="button" className="secondary wh-small" onClick={onOnly} aria-label={`Only delivery ${delivery.id}`}>
          Only this delivery
        </button>
      ) : null}
    </div>
  );
}

function AttemptRow({ attempt }: { attempt: DeliveryAttempt }) {
  const body = attempt.responseBody ?? '';
  return (
    <tr>
      <td>#{attempt.attemptNumber}</td>
      <td>{formatTime(attempt.deliveredAt)}</td>
      <td>
        <OutcomeBadge outcome={attempt.outcome} />
      </td>
      <td>{answerText(attempt.httpStatusCode, attempt.httpStatusCode === null ? attempt.errorCode : null)}</td>
      <td>{attempt.latencyMs} ms</td>
      <td>
        {attempt.errorCode ? <code>{attempt.errorCode}</code> : null}
        {attempt.errorMessage ? <div>{attempt.errorMessage}</div> : null}
        {!attempt.errorCode && !attempt.errorMessage ? '—' : null}
      </td>
      <td className="wh-body">
        {body === '' ? (
          '—'
        ) : body.length <= EXCERPT ? (
          <code>{body}</code>
        ) : (
          <details>
            <summary>
              <code>{body.slice(0, EXCERPT)}…</code>
            </summary>
            <pre>{body}</pre>
          </details>
        )}
      </td>
    </tr>
  );
}
