import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, formatTime, Pager, ProblemMessage } from '../../ui/kit';
import { answerText, DeliveryStatusBadge, OutcomeBadge, pageParam, ShortId } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { deliveryQuery, useDeliveryAttempts, WEBHOOKS } from './queries';
import type { Delivery, DeliveryAttempt } from './types';

const EXCERPT = 120;
const COLUMNS = 7;

/**
 * A subscription's delivery log: the attempts of a page (`GET …/deliveries`, newest first), grouped
 * by their delivery, each delivery with where it stands (`GET /api/webhooks/deliveries/{id}`:
 * status, attempts, the next attempt's time). While one of them is pending the page looks again.
 */
export function DeliveryLog({ subscriptionId }: { subscriptionId: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const pageIndex = pageParam(params.get('logPage'));
  const only = params.get('delivery') ?? undefined;
  const anyPending = useRef(false);
  const attempts = useDeliveryAttempts(subscriptionId, pageIndex, only, () => (anyPending.current ? 1500 : false));
  const groups = groupByDelivery(attempts.data?.items ?? []);
  const deliveries = useQueries({ queries: groups.map((group) => deliveryQuery(session.api, group.deliveryId)) });
  anyPending.current = deliveries.some((delivery) => delivery.data?.status === 'pending');
  // The indicator is for loads someone waits for (the first, a Refresh), not for the quiet polling.
  const [refreshing, setRefreshing] = useState(false);
  const fetching = attempts.isPending || refreshing;
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
        if (value === undefined) next.delete(name);
        else next.set(name, value);
        if (name === 'delivery') next.delete('logPage');
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
        Every attempt, newest first, under its delivery: a delivery is one event for this subscription, attempted until the receiver answers 2xx or its retries
        run out.
      </p>
      {only ? (
        <p className="notice">
          Only the attempts of delivery <code>{only}</code>.{' '}
          <button type="button" className="secondary" onClick={() => setParam('delivery', undefined)}>
            Show every delivery
          </button>
        </p>
      ) : null}
      {fetching ? <Busy label="Loading the delivery log…" /> : null}
      <ProblemMessage error={attempts.error} title="The delivery log could not be read" />
      {attempts.data && attempts.data.items.length === 0 ? (
        <p className="notice">No delivery yet: send a ping, or wait for an event this subscription receives.</p>
      ) : null}
      {groups.length > 0 ? (
        <table className="wh-log-table">
          <caption className="wh-caption">Delivery attempts, newest first, grouped by delivery</caption>
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
          {groups.map((group, index) => (
            <tbody key={group.deliveryId} className="wh-delivery">
              <tr>
                <th scope="rowgroup" colSpan={COLUMNS} className="wh-delivery-head">
                  <DeliveryHeading
                    group={group}
                    delivery={deliveries[index]?.data}
                    error={deliveries[index]?.error}
                    canViewDeadLetters={session.canAny([WEBHOOK_PERMISSIONS.deadLetterView])}
                    onOnly={only ? undefined : () => setParam('delivery', group.deliveryId)}
                  />
                </th>
              </tr>
              {group.attempts.map((attempt) => (
                <AttemptRow key={attempt.id} attempt={attempt} />
              ))}
            </tbody>
          ))}
        </table>
      ) : null}
      <Pager page={attempts.data} onPage={(page) => setParam('logPage', String(page))} label="Delivery log" />
    </section>
  );
}

interface AttemptGroup {
  deliveryId: string;
  eventType: string;
  eventId: string;
  attempts: DeliveryAttempt[];
}

function groupByDelivery(attempts: DeliveryAttempt[]): AttemptGroup[] {
  const groups = new Map<string, AttemptGroup>();
  for (const attempt of attempts) {
    const group = groups.get(attempt.deliveryId) ?? { deliveryId: attempt.deliveryId, eventType: attempt.eventType, eventId: attempt.eventId, attempts: [] };
    group.attempts.push(attempt);
    groups.set(attempt.deliveryId, group);
  }
  return [...groups.values()];
}

function DeliveryHeading({
  group,
  delivery,
  error,
  canViewDeadLetters,
  onOnly,
}: {
  group: AttemptGroup;
  delivery: Delivery | undefined;
  error: unknown;
  canViewDeadLetters: boolean;
  onOnly?: () => void;
}) {
  return (
    <div className="wh-delivery-line">
      <span>
        <code>{group.eventType}</code>
        {delivery?.kind === 'ping' ? ' (ping)' : ''}
      </span>
      <span>
        Delivery <ShortId id={group.deliveryId} />
      </span>
      {delivery ? <DeliveryStatusBadge status={delivery.status} /> : error ? <span>status unknown</span> : <span>status…</span>}
      {delivery ? (
        <span>
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
      ) : null}
      {delivery?.status === 'pending' ? <span>next attempt {formatTime(delivery.nextAttemptAt)}</span> : null}
      {delivery?.completedAt ? <span>ended {formatTime(delivery.completedAt)}</span> : null}
      {delivery?.status === 'dead' && canViewDeadLetters ? (
        <Link to={`/webhooks/dead-letters?subscriptionId=${delivery.subscriptionId}`}>Dead letters</Link>
      ) : null}
      {onOnly ? (
        <button type="button" className="secondary wh-small" onClick={onOnly} aria-label={`Only the attempts of delivery ${group.deliveryId}`}>
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
