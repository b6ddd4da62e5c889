import { ConfigOf, declareConfig } from '@lp/platform/config';

/** webhook-dispatcher's own keys (the platform keys are in the runtime's declaration). */
export const webhookDispatcherConfig = declareConfig('webhook-dispatcher', {
  WEBHOOK_SECRET_KEY: {
    type: 'string',
    group: 'webhooks',
    description:
      'AES-256 key that encrypts subscription signing secrets at rest: 32 bytes in base64, optionally `v{N}:` before it to name its version (default v1); required with NODE_ENV=production, otherwise generated under DATA_DIR',
    sensitive: true,
    minLength: 44,
  },
  WEBHOOK_SECRET_KEYS_PREVIOUS: {
    type: 'string',
    group: 'webhooks',
    description: 'earlier versions of WEBHOOK_SECRET_KEY, `v{N}:{base64},...`, still able to decrypt secrets encrypted under them',
    sensitive: true,
  },
  WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS: {
    type: 'int',
    group: 'webhooks',
    description: 'after a rotation, how long deliveries are signed with the previous secret too',
    default: 86400,
    min: 0,
    max: 30 * 86400,
  },
  WEBHOOK_ALLOWED_NETWORKS: {
    type: 'string',
    group: 'webhooks',
    description:
      'CIDR ranges deliveries may reach although private, loopback, link-local or otherwise internal (comma separated, e.g. `10.20.0.0/16,fd00::/8`); loopback is allowed outside production',
    default: '',
  },
  WEBHOOK_ATTEMPT_TIMEOUT_MS: {
    type: 'int',
    group: 'webhooks',
    description: 'longest one delivery attempt may take, connect to last byte',
    default: 10000,
    min: 100,
    max: 120000,
  },
  WEBHOOK_LEASE_MARGIN_MS: {
    type: 'int',
    group: 'webhooks',
    description:
      'how long a claimed delivery stays leased past its attempt timeout: a live attempt never loses its claim, and after a dispatcher dies mid-attempt another one takes the delivery over once timeout + margin have passed',
    default: 30000,
    min: 1000,
    max: 600000,
  },
  WEBHOOK_RESPONSE_BODY_MAX_BYTES: {
    type: 'int',
    group: 'webhooks',
    description: 'how much of a receiver’s answer the delivery log keeps',
    default: 4096,
    min: 0,
    max: 65536,
  },
  WEBHOOK_MAX_RETRIES: {
    type: 'int',
    group: 'webhooks',
    description: 'retries after the first attempt, for subscriptions that set none',
    default: 5,
    min: 0,
    max: 25,
  },
  WEBHOOK_RETRY_INITIAL_DELAY_MS: { type: 'int', group: 'webhooks', description: 'wait before the first retry', default: 5000, min: 0 },
  WEBHOOK_RETRY_MAX_DELAY_MS: { type: 'int', group: 'webhooks', description: 'longest wait between two attempts', default: 3600000, min: 0 },
  WEBHOOK_RETRY_BACKOFF_PERCENT: {
    type: 'int',
    group: 'webhooks',
    description: 'backoff multiplier in percent (200 = each wait twice the one before)',
    default: 200,
    min: 100,
    max: 1000,
  },
  WEBHOOK_CONCURRENCY: {
    type: 'int',
    group: 'webhooks',
    description: 'attempts one dispatcher instance runs at once, all subscriptions together',
    default: 64,
    min: 1,
    max: 1024,
  },
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: {
    type: 'int',
    group: 'webhooks',
    description: 'attempts one dispatcher instance runs at once for one subscription (a slow receiver holds only these)',
    default: 4,
    min: 1,
    max: 64,
  },
  WEBHOOK_POLL_INTERVAL_MS: {
    type: 'int',
    group: 'webhooks',
    description: 'how often an idle dispatcher looks for deliveries that came due (new events wake it at once)',
    default: 1000,
    min: 10,
    max: 60000,
  },
  WEBHOOK_DEAD_LETTERS: {
    type: 'string',
    group: 'webhooks',
    description: '`store` keeps deliveries whose retries ran out (listed, replayable); `discard` is the spec’s default policy',
    default: 'store',
    oneOf: ['store', 'discard'],
  },
  WEBHOOK_DELIVERY_RETENTION_DAYS: {
    type: 'int',
    group: 'retention',
    description: 'days finished deliveries, their attempts and dead letters are kept',
    default: 30,
    min: 1,
  },
});

export type WebhookDispatcherConfig = ConfigOf<typeof webhookDispatcherConfig>;
