import { z } from 'zod';
import { AuthorizationAction, WebhooksRpc } from '@lp/contracts';
import { defineTool } from './mcp-tool';

const webhookSubscription = z.object({
  id: z.string().describe('subscription id'),
  callbackUrl: z.string(),
  eventTypes: z.array(z.string()).describe('event type patterns: ticket.*, ticket.created or *.created'),
  description: z.string().nullable(),
  isActive: z.boolean(),
  deactivatedReason: z.string().nullable().describe('why the dispatcher turned it off (gone: the receiver answered 410)'),
  maxRetries: z.number().nullable().describe('null: the dispatcher default'),
  effectiveMaxRetries: z.number(),
  secretFingerprint: z.string().describe('SHA-256 of the signing secret (the secret itself is never listed)'),
  previousSecretFingerprint: z.string().nullable(),
  previousSecretExpiresAt: z.string().nullable(),
  revision: z.number(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});

/** `list_webhook_subscriptions`: the tenant's subscriptions (`GET /api/webhooks/subscriptions`), never their secrets. */
export const listWebhookSubscriptionsTool = defineTool({
  name: 'list_webhook_subscriptions',
  title: 'List webhook subscriptions',
  description:
    "Lists your tenant's webhook subscriptions (callback URL, event type patterns, active or not, retries, secret fingerprint), newest first, one page at a time. Signing secrets are never shown.",
  input: z.strictObject({
    PageIndex: z.number().int().min(0).max(100_000).optional().describe('zero-based page, default 0'),
    PageSize: z.number().int().min(1).max(100).optional().describe('1–100, default 20'),
    IsActive: z.boolean().optional().describe('only active (true) or only inactive (false) subscriptions'),
  }),
  output: z.object({ items: z.array(webhookSubscription), pageIndex: z.number(), pageSize: z.number(), totalCount: z.number() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [{ module: 'webhooks', resource: 'subscription', action: AuthorizationAction.View }],
  argumentFields: { PageIndex: 'pageIndex', PageSize: 'pageSize', IsActive: 'isActive' },
  run: (input, { call }) =>
    call(WebhooksRpc.listSubscriptions, {
      ...(input.PageIndex === undefined ? {} : { pageIndex: input.PageIndex }),
      ...(input.PageSize === undefined ? {} : { pageSize: input.PageSize }),
      ...(input.IsActive === undefined ? {} : { isActive: input.IsActive }),
    }),
});
