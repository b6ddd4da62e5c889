/**
 * One HTTP attempt of a delivery, as the scheduler hands it to the transport. The body is
 * `{eventId, eventType, payload}` serialized once by `deliveryBody`; what is signed is documented in
 * libs/services/webhook-dispatcher/docs/delivery-transport.md.
 */
export interface OutboundDelivery {
  tenantId: string;
  subscriptionId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  callbackUrl: string;
  payload: unknown;
  /** Plaintext signing secrets (`whsec_…`): the current one first, then the previous one during a rotation's overlap. */
  secrets: string[];
  /** The attempt's time: `X-Webhook-Timestamp` and `webhook-timestamp`, both signed. */
  attemptedAt: Date;
  /** The trace the delivery belongs to (W3C `traceparent`): the attempt's span is its child and the request sends it. */
  traceparent?: string | null;
}

/** Why an attempt got no HTTP answer; the delivery log's `errorCode`. */
export type DeliveryErrorCode =
  | 'Webhook.AddressRefused' // SSRF protection or the IP allowlist refused every address of the host: nothing was connected
  | 'Webhook.DnsFailed'
  | 'Webhook.ConnectFailed'
  | 'Webhook.Timeout'
  | 'Webhook.TlsFailed'
  | 'Webhook.RateLimited' // the per-subscriber rate-limit policy held the attempt back: nothing was sent
  | 'Webhook.RequestFailed';

export type DeliveryOutcome =
  | {
      kind: 'response';
      status: number;
      /** The answer's body, cut to `WEBHOOK_RESPONSE_BODY_MAX_BYTES` (UTF-8), or null when empty. */
      body: string | null;
      /** A 429 or 503 answer's `Retry-After`, in ms from now (delta-seconds or an HTTP date). */
      retryAfterMs?: number;
      latencyMs: number;
    }
  | { kind: 'error'; code: DeliveryErrorCode; message: string; latencyMs: number };

/** Sends one attempt: never follows a redirect, never throws for a network problem (that is an outcome). */
export abstract class WebhookTransport {
  abstract send(delivery: OutboundDelivery): Promise<DeliveryOutcome>;
}

/** The request body every attempt of a delivery sends, byte for byte. */
export function deliveryBody(delivery: Pick<OutboundDelivery, 'eventId' | 'eventType' | 'payload'>): string {
  return JSON.stringify({ eventId: delivery.eventId, eventType: delivery.eventType, payload: delivery.payload });
}
