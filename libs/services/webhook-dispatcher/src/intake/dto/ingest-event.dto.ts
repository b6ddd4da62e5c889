import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { isWebhookEventType, MAX_EVENT_TYPE_LENGTH, WEBHOOK_SOURCE_MODULES } from '@lp/contracts';

/** Largest event payload accepted, serialized (it is stored with every delivery and sent as is). */
export const MAX_EVENT_PAYLOAD_BYTES = 256 * 1024;
const EVENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export const ingestEventSchema = z
  .object({
    eventType: z
      .string()
      .max(MAX_EVENT_TYPE_LENGTH)
      .refine(isWebhookEventType, {
        message: `must be a lower-case event type of a registered module (${WEBHOOK_SOURCE_MODULES.join(', ')}), e.g. ticket.created`,
      }),
    payload: z.record(z.string(), z.unknown()).refine((payload) => Buffer.byteLength(JSON.stringify(payload)) <= MAX_EVENT_PAYLOAD_BYTES, {
      message: `must serialize to at most ${MAX_EVENT_PAYLOAD_BYTES} bytes`,
    }),
    eventId: z.string().regex(EVENT_ID, 'must be 1 to 200 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit').optional(),
    occurredAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export type IngestEvent = z.infer<typeof ingestEventSchema>;

/** Body of POST /api/webhooks/events, for the OpenAPI document only (the rules are `ingestEventSchema`). */
export class IngestEventDto {
  @ApiProperty({ example: 'ticket.created', description: 'An event type of a registered module.' }) eventType!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: `Sent as \`payload\`; at most ${MAX_EVENT_PAYLOAD_BYTES} bytes as JSON.` })
  payload!: Record<string, unknown>;
  @ApiPropertyOptional({
    example: 'ticket-4711-created',
    description: 'The producer’s id of the event: sending it again creates no second delivery. Generated (a UUID) when absent.',
  })
  eventId?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'When it happened; now when absent.' }) occurredAt?: string;
}

export class IngestEventResponse {
  @ApiProperty() eventId!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ description: 'Active subscriptions of the tenant whose patterns match the type.' }) matchedSubscriptions!: number;
  @ApiProperty({ description: 'Deliveries created by this request (0 when the event id was seen before).' }) deliveriesCreated!: number;
}
