import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';

/** One attempt in the delivery log (spec §2 fields, plus the delivery id, the outcome, an error code and latency). */
export class DeliveryAttemptResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The X-Webhook-Delivery-Id (and webhook-id) every attempt of this delivery carried.' }) deliveryId!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty({ example: 'ticket.created' }) eventType!: string;
  @ApiProperty({ minimum: 1 }) attemptNumber!: number;
  @ApiProperty({ enum: ['succeeded', 'failed'] }) outcome!: 'succeeded' | 'failed';
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null when no HTTP answer came (see errorCode).' }) httpStatusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The answer’s body, cut to WEBHOOK_RESPONSE_BODY_MAX_BYTES.' }) responseBody!: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'Webhook.Timeout' }) errorCode!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) errorMessage!: string | null;
  @ApiProperty({ description: 'Connect to last byte read, in milliseconds.' }) latencyMs!: number;
  @ApiProperty({ format: 'date-time' }) deliveredAt!: string;
}

export class DeliveryAttemptPage extends PageMeta {
  @ApiProperty({ type: DeliveryAttemptResponse, isArray: true }) items!: DeliveryAttemptResponse[];
}

/**
 * Where a delivery stands, as people name it: `pending` (not attempted yet), `retrying` (attempted,
 * failed, due again), `delivered` (a 2xx), `dead` (retries used up, or 410), `cancelled` (its
 * subscription was deleted first). The store keeps `pending` for the first two.
 */
export const DELIVERY_VIEW_STATUSES = ['pending', 'retrying', 'delivered', 'dead', 'cancelled'] as const;
export type DeliveryViewStatus = (typeof DELIVERY_VIEW_STATUSES)[number];

/** The most recent attempts nested in a delivery; the attempt log (`?deliveryId=`) has them all. */
export const MAX_NESTED_ATTEMPTS = 30;

/** A delivery: one event for one subscription, with where it stands and its attempts. */
export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ enum: ['event', 'ping'] }) kind!: 'event' | 'ping';
  @ApiProperty({ enum: DELIVERY_VIEW_STATUSES, description: 'pending: not attempted yet; retrying: failed, due again; delivered; dead; cancelled.' })
  status!: DeliveryViewStatus;
  @ApiProperty({ description: 'Attempts made so far.' }) attempts!: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the next attempt is due (pending only).' }) nextAttemptAt!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true }) lastError!: string | null;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({
    type: DeliveryAttemptResponse,
    isArray: true,
    description: `Its attempts, oldest first: the last ${MAX_NESTED_ATTEMPTS} when there were more (see \`attempts\`).`,
  })
  attemptLog!: DeliveryAttemptResponse[];
}

export class DeliveryPage extends PageMeta {
  @ApiProperty({ type: DeliveryResponse, isArray: true }) items!: DeliveryResponse[];
}

/** A dead-lettered delivery. */
export class DeadLetterResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'Replay sends this same delivery (same id) again.' }) deliveryId!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ enum: ['RetriesExhausted', 'SubscriptionGone'] }) reason!: string;
  @ApiProperty({ description: 'Attempts made when it died.' }) attempts!: number;
  @ApiProperty({ type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true }) lastError!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) replayedAt!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) replayedBy!: string | null;
}

export class DeadLetterPage extends PageMeta {
  @ApiProperty({ type: DeadLetterResponse, isArray: true }) items!: DeadLetterResponse[];
}

/** What a ping's one attempt came to. */
export class PingResponse {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty({ example: 'webhook.ping' }) eventType!: string;
  @ApiProperty({ description: 'Whether the receiver answered 2xx.' }) succeeded!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) httpStatusCode!: number | null;
  @ApiProperty({ type: 'string', nullable: true }) errorCode!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) errorMessage!: string | null;
  @ApiProperty() latencyMs!: number;
}
