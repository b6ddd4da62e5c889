import type { DeliveryAttempt, DeliveryStatus, Subscription } from './types';

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  dead: 'Dead',
  cancelled: 'Cancelled',
};

/** A delivery's state as a labelled badge (text, never colour alone). */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`wh-badge wh-badge-${status}`}>{STATUS_LABELS[status] ?? status}</span>;
}

/** One attempt's outcome: the status per attempt of the delivery log. */
export function OutcomeBadge({ outcome }: { outcome: DeliveryAttempt['outcome'] }) {
  return <span className={`wh-badge wh-badge-${outcome === 'succeeded' ? 'succeeded' : 'dead'}`}>{outcome === 'succeeded' ? 'Succeeded' : 'Failed'}</span>;
}

export function ActiveBadge({ subscription }: { subscription: Pick<Subscription, 'isActive' | 'deactivatedReason'> }) {
  if (subscription.isActive) return <span className="wh-badge wh-badge-succeeded">Active</span>;
  return (
    <span className="wh-badge wh-badge-cancelled">
      Inactive
      {subscription.deactivatedReason ? ` (${subscription.deactivatedReason === 'gone' ? 'receiver answered 410 Gone' : subscription.deactivatedReason})` : ''}
    </span>
  );
}

/** The first characters of an id, for tables; the full id is in the title and in the details. */
export function ShortId({ id }: { id: string }) {
  return (
    <code className="wh-id" title={id}>
      {id.slice(0, 8)}
    </code>
  );
}

/** What a receiver answered, or why no answer came. */
export function answerText(httpStatusCode: number | null, errorCode?: string | null): string {
  if (httpStatusCode !== null) return `HTTP ${httpStatusCode}`;
  return errorCode ?? 'no answer';
}

export function retriesText(subscription: Pick<Subscription, 'maxRetries' | 'effectiveMaxRetries'>): string {
  return subscription.maxRetries === null ? `${subscription.effectiveMaxRetries} (platform default)` : String(subscription.maxRetries);
}

/** A page number from the query string (zero-based), never negative. */
export function pageParam(value: string | null): number {
  const page = Number(value ?? 0);
  return Number.isInteger(page) && page > 0 ? page : 0;
}
