import { z } from 'zod';

/** Longest callback URL a subscription keeps (the column's width). */
export const MAX_CALLBACK_URL_LENGTH = 2048;
/** Most event type patterns one subscription lists. */
export const MAX_SUBSCRIPTION_EVENT_TYPES = 50;
export const MAX_SUBSCRIPTION_DESCRIPTION_LENGTH = 500;
/** Retries a subscription may ask for (the column's check; null leaves it to `WEBHOOK_MAX_RETRIES`). */
export const MAX_SUBSCRIPTION_RETRIES = 25;
/** Longest rotation overlap a caller may ask for: 30 days, the bound of `WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS`. */
export const MAX_SECRET_ROTATION_OVERLAP_SECONDS = 30 * 86400;

/**
 * A webhook subscription as every surface returns it (routes, RPC `webhooks.subscriptions.list`,
 * the MCP tool): never the signing secret or its ciphertext, only their SHA-256 fingerprints.
 */
export interface WebhookSubscriptionView {
  id: string;
  callbackUrl: string;
  eventTypes: string[];
  description: string | null;
  isActive: boolean;
  /** Why the dispatcher turned it off (`gone` after a 410 answer); null when a person did, or it is active. */
  deactivatedReason: string | null;
  /** What the subscription asked for; null leaves it to the dispatcher's default. */
  maxRetries: number | null;
  /** The retries deliveries actually get: `maxRetries`, or the default. */
  effectiveMaxRetries: number;
  secretFingerprint: string;
  previousSecretFingerprint: string | null;
  previousSecretExpiresAt: string | null;
  revision: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

/** Create and rotate answer the subscription with its new signing secret: the only times it is shown. */
export interface WebhookSubscriptionWithSecret extends WebhookSubscriptionView {
  secret: string;
}

/** `webhooks.subscriptions.list`: the paging of `GET /api/webhooks/subscriptions` and its `isActive` filter. */
export const listSubscriptionsSchema = z.strictObject({
  pageIndex: z.number().int().min(0).max(100_000).default(0),
  pageSize: z.number().int().min(1).max(100).default(20),
  isActive: z.boolean().optional(),
});
export type ListSubscriptionsRequest = z.input<typeof listSubscriptionsSchema>;
