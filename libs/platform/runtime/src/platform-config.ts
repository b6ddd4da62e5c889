import { ConfigOf, declareConfig } from '@lp/platform/config/plain';

/**
 * Keys every service reads. Each adapter is chosen by its own variable: unset means the embedded
 * default (PGlite, in-process transport, in-memory cache).
 */
export const platformConfig = declareConfig('platform', {
  NODE_ENV: { type: 'string', group: 'runtime', description: 'production refuses to start without explicit JWT settings', default: 'development' },
  PORT: { type: 'int', group: 'runtime', description: 'HTTP port', default: 3000, min: 0, max: 65535 },
  HOST: { type: 'string', group: 'runtime', description: 'HTTP bind address', default: '127.0.0.1' },
  SHUTDOWN_DRAIN_MS: {
    type: 'int',
    group: 'runtime',
    description: 'on SIGTERM, how long requests in flight may finish before their connections are closed',
    default: 10000,
    min: 0,
  },
  RETENTION_BATCH_SIZE: {
    type: 'int',
    group: 'retention',
    description: 'rows deleted per statement by a retention purge (each batch its own short statement)',
    default: 5000,
    min: 1,
    max: 100000,
  },
  PROCESSED_EVENT_RETENTION_DAYS: {
    type: 'int',
    group: 'retention',
    description: 'days a consumed event id is remembered for deduplication (a redelivery older than this would run again)',
    default: 7,
    min: 1,
  },
  DATA_DIR: { type: 'string', group: 'runtime', description: 'embedded database and generated signing secret', default: './.data' },
  LOG_FORMAT: {
    type: 'string',
    oneOf: ['json', 'pretty'],
    group: 'observability',
    description: 'json (one object per line, for collectors) or pretty (readable); unset: pretty on the embedded database, json otherwise',
  },
  LOG_LEVEL: {
    type: 'string',
    group: 'runtime',
    description: 'pino log level',
    default: 'info',
    oneOf: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  },
  DATABASE_URL: { type: 'url', group: 'persistence', description: 'PostgreSQL; unset = embedded PGlite under DATA_DIR', sensitive: true },
  DATABASE_POOL_SIZE: { type: 'int', group: 'persistence', description: 'connections per service', default: 10, min: 1, max: 200 },
  AMQP_URL: { type: 'url', group: 'messaging', description: 'RabbitMQ; unset = in-process transport', sensitive: true },
  AMQP_PREFIX: { type: 'string', group: 'messaging', description: 'prefix of queue and exchange names', default: '' },
  RPC_TIMEOUT_MS: { type: 'int', group: 'messaging', description: 'default RPC call timeout', default: 5000, min: 50 },
  AUTHZ_DECISION_TIMEOUT_MS: { type: 'int', group: 'messaging', description: 'guard wait for a decision before failing closed', default: 3000, min: 50 },
  REDIS_URL: { type: 'url', group: 'cache', description: 'Redis; unset = in-process LRU', sensitive: true },
  REDIS_COMMAND_TIMEOUT_MS: {
    type: 'int',
    group: 'cache',
    description: 'longest one Redis call may take before the caller falls back to the source of truth; 3 failures in a row make calls fail fast for 1 s',
    default: 100,
    min: 5,
  },
  REDIS_KEY_PREFIX: { type: 'string', group: 'cache', description: 'prefix of every Redis key', default: 'lp:' },
  JWT_SECRET: {
    type: 'string',
    group: 'identity',
    description: 'HS256 signing secret; unset in development = generated under DATA_DIR',
    sensitive: true,
    minLength: 32,
  },
  JWT_ISSUER: { type: 'string', group: 'identity', description: 'expected iss', default: 'legal-platform' },
  JWT_AUDIENCE: { type: 'string', group: 'identity', description: 'expected aud', default: 'legal-platform-api' },
  JWT_MAX_TTL_SECONDS: {
    type: 'int',
    group: 'identity',
    description: 'longest accepted token lifetime (exp - iat); tokens without exp are refused',
    default: 86400,
    min: 60,
  },
  JWT_JWKS_URI: { type: 'url', group: 'identity', description: 'OIDC issuer JWKS for asymmetric tokens (instead of JWT_SECRET)' },
  USER_POLICY_LIMIT: { type: 'int', group: 'http', description: 'userPolicy: write requests per caller per window', default: 120, min: 1 },
  USER_POLICY_WINDOW_MS: { type: 'int', group: 'http', description: 'userPolicy window', default: 60000, min: 1000 },
  STANDARD_COMMAND_TIMEOUT_MS: { type: 'int', group: 'http', description: 'StandardCommand request timeout', default: 30000, min: 100 },
  WORKFLOW_COMMAND_TIMEOUT_MS: { type: 'int', group: 'http', description: 'WorkflowCommand request timeout', default: 120000, min: 100 },
  ADMISSION_CONCURRENCY: {
    type: 'string',
    oneOf: ['adaptive', 'fixed'],
    group: 'admission',
    description:
      'HTTP requests one process works on at once: adaptive (follows latency between ADMISSION_MIN_LIMIT and ADMISSION_MAX_LIMIT, Gradient2) or fixed (ADMISSION_LIMIT); probes and /metrics are never limited',
    default: 'adaptive',
  },
  ADMISSION_LIMIT: {
    type: 'int',
    group: 'admission',
    description: 'the fixed concurrency limit, or where the adaptive one starts',
    default: 32,
    min: 1,
    max: 10000,
  },
  ADMISSION_MIN_LIMIT: { type: 'int', group: 'admission', description: 'adaptive: the limit never goes below this', default: 16, min: 1, max: 10000 },
  ADMISSION_MAX_LIMIT: { type: 'int', group: 'admission', description: 'adaptive: the limit never goes above this', default: 256, min: 1, max: 10000 },
  ADMISSION_QUEUE_TIMEOUT_MS: {
    type: 'int',
    group: 'admission',
    description: 'longest a request waits for a slot; one that would wait longer is answered 503 ServiceUnavailable at once',
    default: 50,
    min: 0,
    max: 60000,
  },
  ADMISSION_QUEUE_SIZE: { type: 'int', group: 'admission', description: 'most requests waiting for a slot at once', default: 256, min: 0, max: 100000 },
});

export type PlatformConfig = ConfigOf<typeof platformConfig>;
