import { Link, useParams } from 'react-router';
import { useSession } from '../../api/session';
import { Busy, formatTime, ProblemMessage } from '../../ui/kit';
import { reasonText } from './DeadLetterList';
import { answerText, DeliveryStatusBadge } from './format';
import { WEBHOOK_PERMISSIONS } from './permissions';
import { useDeadLetter, useDelivery } from './queries';
import { isUnderway } from './types';
import { useReplay } from './useReplay';

/** One dead letter, where its delivery stands now (followed while it is pending again), and its replay. */
export function DeadLetterDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const deadLetter = useDeadLetter(id);
  const canSeeDelivery = session.canAny([WEBHOOK_PERMISSIONS.deliveryView]);
  const delivery = useDelivery(deadLetter.data?.deliveryId, canSeeDelivery);
  const replay = useReplay();
  const item = deadLetter.data;

  return (
    <section aria-labelledby="wh-dead-letter">
      <p>
        <Link to="/webhooks/dead-letters">← All dead letters</Link>
      </p>
      <h2 id="wh-dead-letter">Dead letter{item ? `: ${item.eventType}` : ''}</h2>
      {deadLetter.isPending ? <Busy label="Loading the dead letter…" /> : null}
      <ProblemMessage error={deadLetter.error} />
      {item ? (
        <>
          <dl className="wh-facts">
            <dt>Delivery</dt>
            <dd>
              <code>{item.deliveryId}</code>
            </dd>
            <dt>Event</dt>
            <dd>
              <code>{item.eventType}</code> · id <code>{item.eventId}</code>
            </dd>
            <dt>Subscription</dt>
            <dd>
              {session.canAny([WEBHOOK_PERMISSIONS.view]) ? (
                <Link to={`/webhooks/subscriptions/${item.subscriptionId}?delivery=${item.deliveryId}`}>
                  <code>{item.subscriptionId}</code> (its log of this delivery)
                </Link>
              ) : (
                <code>{item.subscriptionId}</code>
              )}
            </dd>
            <dt>Reason</dt>
            <dd>{reasonText(item.reason)}</dd>
            <dt>Attempts when it died</dt>
            <dd>{item.attempts}</dd>
            <dt>Last answer</dt>
            <dd>
              {answerText(item.lastStatusCode)}
              {item.lastError ? ` · ${item.lastError}` : ''}
            </dd>
            <dt>Died</dt>
            <dd>{formatTime(item.createdAt)}</dd>
            <dt>Replayed</dt>
            <dd>{item.replayedAt ? `${formatTime(item.replayedAt)} by ${item.replayedBy ?? '?'}` : 'Not yet'}</dd>
          </dl>

          <section aria-labelledby="wh-delivery-now">
            <h3 id="wh-delivery-now">The delivery now</h3>
            {!canSeeDelivery ? <p className="notice">Where the delivery stands needs the permission {WEBHOOK_PERMISSIONS.deliveryView}.</p> : null}
            {delivery.isPending && canSeeDelivery ? <Busy label="Loading the delivery…" /> : null}
            <ProblemMessage error={delivery.error} />
            {delivery.data ? (
              <p className="wh-delivery-line" data-testid="delivery-now">
                <span>Status</span> <DeliveryStatusBadge status={delivery.data.status} />
                <span>
                  {delivery.data.attempts} {delivery.data.attempts === 1 ? 'attempt' : 'attempts'}
                </span>
                <span>last answer {answerText(delivery.data.lastStatusCode)}</span>
                {isUnderway(delivery.data.status) ? <span>next attempt {formatTime(delivery.data.nextAttemptAt)}</span> : null}
                {delivery.data.completedAt ? <span>ended {formatTime(delivery.data.completedAt)}</span> : null}
              </p>
            ) : null}
            {delivery.data && isUnderway(delivery.data.status) ? <Busy label="Following the delivery…" /> : null}
          </section>

          {session.canAny([WEBHOOK_PERMISSIONS.deadLetterManage]) ? (
            <div className="wh-toolbar">
              <button type="button" onClick={() => replay.mutate(item)} disabled={replay.isPending}>
                {replay.isPending ? 'Replaying…' : 'Replay'}
              </button>
            </div>
          ) : null}
          {replay.isSuccess ? (
            <p className="success" role="status">
              <strong>Replayed.</strong> The delivery is pending again, due now; its status above follows it.
            </p>
          ) : null}
          <ProblemMessage error={replay.error} title="Not replayed" />
        </>
      ) : null}
    </section>
  );
}
