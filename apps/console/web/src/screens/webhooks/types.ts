/**
 * The webhook-dispatcher's shapes as its routes answer them (OpenAPI `/openapi/webhook-dispatcher.json`;
 * libs/services/webhook-dispatcher/docs/subscriptions.md and deliveries.md).
 */

// The shapes the webhook routes answer, as the service declares them (type-only: nothing of the
// contracts lib reaches the bundle).
export type { WebhookSubscriptionView as Subscription, WebhookSubscriptionWithSecret as SubscriptionWithSecret } from '@lp/contracts';

/** The body of create; PATCH takes any of these (at least one). */
export interface SubscriptionBody {
  callbackUrl?: string;
  eventTypes?: string[];
  description?: string | null;
  isActive?: boolean;
  maxRetries?: number | null;
}

/** One attempt in a subscription's delivery log. */
export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  outcome: 'succeeded' | 'failed';
  httpStatusCode: number | null;
  responseBody: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  latencyMs: number;
  deliveredAt: string;
}

/** Where a delivery stands: not attempted yet, failed and due again, a 2xx, retries used up, or its subscription deleted. */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'dead' | 'cancelled';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'retrying', 'delivered', 'dead', 'cancelled'];

/** Whether the dispatcher is still working on it (it will be attempted again). */
export function isUnderway(status: DeliveryStatus): boolean {
  return status === 'pending' || status === 'retrying';
}

/** One event for one subscription, where it stands, and its attempts (the last 30, oldest first). */
export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  kind: 'event' | 'ping';
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  occurredAt: string;
  createdAt: string;
  completedAt: string | null;
  attemptLog: DeliveryAttempt[];
}

/** One family of event types a subscription may name (`GET /api/webhooks/event-types`). */
export interface EventTypeFamily {
  module: string;
  pattern: string;
  source: string;
  knownEventTypes: string[];
}

/** A delivery whose retries ran out (or whose receiver answered 410). */
export interface DeadLetter {
  id: string;
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  reason: 'RetriesExhausted' | 'SubscriptionGone' | string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  replayedAt: string | null;
  replayedBy: string | null;
}

/** What a ping's one attempt came to (200 even when the receiver failed). */
export interface PingResult {
  deliveryId: string;
  eventType: string;
  succeeded: boolean;
  httpStatusCode: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  latencyMs: number;
}
