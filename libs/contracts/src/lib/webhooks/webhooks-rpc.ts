import type { Page } from '../decision-audit';
import { rpcContract } from '../messaging/rpc-contract';
import { listSubscriptionsSchema, WebhookSubscriptionView } from './webhook-subscription-model';

const WEBHOOK_DISPATCHER = 'webhook-dispatcher';

/**
 * webhook-dispatcher's RPC surface (`webhook-dispatcher.rpc`), for the MCP gateway's webhook tool:
 * the same `@Authorize` check (as the caller in the message) and service method as the route.
 */
export const WebhooksRpc = {
  /** One page of the caller's tenant's subscriptions, newest first (`GET /api/webhooks/subscriptions`). */
  listSubscriptions: rpcContract<Page<WebhookSubscriptionView>>()({
    pattern: 'webhooks.subscriptions.list',
    service: WEBHOOK_DISPATCHER,
    payload: listSubscriptionsSchema,
  }),
} as const;
