import type { WebhookSubscriptionEntity } from '../store';

/**
 * The signing secrets of a subscription in plaintext, for the moment of signing only: the current
 * one first, then the previous one while the rotation overlap lasts (`previous_secret_expires_at`
 * after `now`). Never logged, never returned by a route except once at create and rotate.
 */
export abstract class SubscriptionSecrets {
  abstract signingSecretsOf(subscription: WebhookSubscriptionEntity, now: Date): string[];
}
