import type { OutboundDelivery } from '../transport/webhook-transport';
import { plainSignature, standardWebhooksSignature } from './delivery-signatures';

export const WEBHOOK_USER_AGENT = 'legal-platform-webhooks/1';

/** The request headers of one attempt (lowercase: what a receiver's HTTP stack shows). */
export type DeliveryHeaders = {
  'content-type': 'application/json';
  'user-agent': string;
  'x-webhook-timestamp': string;
  'x-webhook-signature': string;
  'x-webhook-event': string;
  'x-webhook-delivery-id': string;
  'x-webhook-subscription-id': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The headers of one attempt, both signature schemes included: the spec's `X-Webhook-*` set and
 * the Standard Webhooks set (`webhook-*`), so a receiver can verify with either. Every secret signs
 * (current first): during a rotation's overlap a receiver holding only the previous secret still
 * finds a signature it can check. `body` must be the exact string sent.
 */
export function deliveryHeaders(delivery: OutboundDelivery, body: string): DeliveryHeaders {
  const timestamp = delivery.attemptedAt.toISOString();
  const unixSeconds = Math.floor(delivery.attemptedAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-webhook-timestamp': timestamp,
    'x-webhook-signature': delivery.secrets.map((secret) => plainSignature(secret, timestamp, body)).join(','),
    'x-webhook-event': delivery.eventType,
    'x-webhook-delivery-id': delivery.deliveryId,
    'x-webhook-subscription-id': delivery.subscriptionId,
    'webhook-id': delivery.deliveryId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': delivery.secrets.map((secret) => standardWebhooksSignature(secret, delivery.deliveryId, unixSeconds, body)).join(' '),
  };
}
