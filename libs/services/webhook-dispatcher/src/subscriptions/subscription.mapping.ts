import type { WebhookSubscriptionView } from '@lp/contracts';
import type { WebhookSubscriptionEntity } from '../store';

/** The row as every surface shows it: the ciphertexts and key versions stay behind. */
export function subscriptionViewOf(row: WebhookSubscriptionEntity, defaultMaxRetries: number): WebhookSubscriptionView {
  return {
    id: row.id,
    callbackUrl: row.callbackUrl,
    eventTypes: row.eventTypes,
    description: row.description,
    isActive: row.isActive,
    deactivatedReason: row.deactivatedReason,
    maxRetries: row.maxRetries,
    effectiveMaxRetries: row.maxRetries ?? defaultMaxRetries,
    secretFingerprint: row.secretFingerprint,
    previousSecretFingerprint: row.previousSecretFingerprint,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}
