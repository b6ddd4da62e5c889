import { ApiProperty } from '@nestjs/swagger';
import type { WebhookSubscriptionView, WebhookSubscriptionWithSecret } from '@lp/contracts';
import { PageMeta } from '@lp/platform/http';

/** A webhook subscription as every route returns it: never the signing secret, only its fingerprint. */
export class SubscriptionResponse implements WebhookSubscriptionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://hooks.example.com/platform' }) callbackUrl!: string;
  @ApiProperty({ type: 'string', isArray: true, example: ['ticket.*', 'case.created', '*.completed'] }) eventTypes!: string[];
  @ApiProperty({ type: 'string', nullable: true, maxLength: 500 }) description!: string | null;
  @ApiProperty() isActive!: boolean;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'gone',
    description: 'Why the dispatcher turned the subscription off (`gone`: the receiver answered 410); cleared by PATCH `isActive: true`.',
  })
  deactivatedReason!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 25, description: 'Null: the dispatcher default (`WEBHOOK_MAX_RETRIES`).' })
  maxRetries!: number | null;
  @ApiProperty({ type: 'integer', description: 'The retries deliveries get: `maxRetries`, or the default.' }) effectiveMaxRetries!: number;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the current signing secret.' }) secretFingerprint!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the previous secret, while deliveries are still signed with it.',
  })
  previousSecretFingerprint!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the previous secret stops signing deliveries.' })
  previousSecretExpiresAt!: string | null;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Grows by one with every change.' }) revision!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty() createdBy!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() updatedBy!: string;
}

/** Create and rotate: the subscription and its new signing secret, shown this once and never again. */
export class SubscriptionWithSecretResponse extends SubscriptionResponse implements WebhookSubscriptionWithSecret {
  @ApiProperty({
    pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
    description: 'The signing secret (`whsec_` + base64 of 32 random bytes). Shown only in this answer: store it now.',
  })
  secret!: string;
}

export class SubscriptionPage extends PageMeta {
  @ApiProperty({ type: SubscriptionResponse, isArray: true }) items!: SubscriptionResponse[];
}
