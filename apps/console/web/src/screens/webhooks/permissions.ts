/** The permission codes of `/api/webhooks/**` (README's webhook table; the API still decides every call). */
export const WEBHOOK_PERMISSIONS = {
  view: 'webhooks.subscription.view',
  create: 'webhooks.subscription.create',
  update: 'webhooks.subscription.update',
  delete: 'webhooks.subscription.delete',
  /** Rotating the signing secret (the new secret is shown to whoever rotates). */
  manage: 'webhooks.subscription.manage',
  deliveryView: 'webhooks.delivery.view',
  /** Ping: one test delivery. */
  deliveryCreate: 'webhooks.delivery.create',
  deadLetterView: 'webhooks.dead-letter.view',
  deadLetterManage: 'webhooks.dead-letter.manage',
} as const;
