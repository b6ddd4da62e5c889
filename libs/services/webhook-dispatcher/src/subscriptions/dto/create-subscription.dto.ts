import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_CALLBACK_URL_LENGTH, MAX_SUBSCRIPTION_DESCRIPTION_LENGTH, MAX_SUBSCRIPTION_EVENT_TYPES, MAX_SUBSCRIPTION_RETRIES } from '@lp/contracts';

/**
 * Body of POST /api/webhooks/subscriptions, for the OpenAPI document only: the rules are enforced
 * once, by `subscriptionSchemas` through the validation pipe; this class is never instantiated.
 */
export class CreateSubscriptionDto {
  @ApiProperty({
    format: 'uri',
    maxLength: MAX_CALLBACK_URL_LENGTH,
    example: 'https://hooks.example.com/platform',
    description: 'Absolute http: or https: URL (https: only in production), without credentials or fragment.',
  })
  callbackUrl!: string;

  @ApiProperty({
    type: 'string',
    isArray: true,
    minItems: 1,
    maxItems: MAX_SUBSCRIPTION_EVENT_TYPES,
    uniqueItems: true,
    example: ['ticket.*', 'case.created', '*.completed'],
    description:
      'Patterns: `{module}.*`, an exact type (`ticket.created`), or `*.{name}`; modules: ticket, chat, file, billing, notification, catalog, case, workflow.',
  })
  eventTypes!: string[];

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_SUBSCRIPTION_DESCRIPTION_LENGTH })
  description?: string | null;

  @ApiPropertyOptional({ default: true })
  isActive?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_SUBSCRIPTION_RETRIES,
    description: 'Null or absent: the dispatcher default.',
  })
  maxRetries?: number | null;
}

/** Body of PATCH /api/webhooks/subscriptions/{id}: any of the create fields, at least one. */
export class UpdateSubscriptionDto {
  @ApiPropertyOptional({ format: 'uri', maxLength: MAX_CALLBACK_URL_LENGTH }) callbackUrl?: string;
  @ApiPropertyOptional({ type: 'string', isArray: true, minItems: 1, maxItems: MAX_SUBSCRIPTION_EVENT_TYPES, uniqueItems: true }) eventTypes?: string[];
  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_SUBSCRIPTION_DESCRIPTION_LENGTH, description: 'Null clears it.' })
  description?: string | null;
  @ApiPropertyOptional({ description: '`true` also clears `deactivatedReason`.' }) isActive?: boolean;
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: MAX_SUBSCRIPTION_RETRIES, description: 'Null: back to the default.' })
  maxRetries?: number | null;
}

/** Body of POST /api/webhooks/subscriptions/{id}/rotate-secret (optional). */
export class RotateSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 2592000,
    description: 'How long the old secret still signs deliveries; default `WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS`; 0 drops it at once.',
  })
  overlapSeconds?: number;
}
