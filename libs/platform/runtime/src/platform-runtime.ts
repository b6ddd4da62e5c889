import { resolve } from 'node:path';
import { Logger, LoggerService } from '@nestjs/common';
import type { Params as LoggerParams } from 'nestjs-pino';
import { assertJwtVerificationOptions, JwtVerificationOptions } from '@lp/platform/auth';
import { installPlatformLogger, loggerParams } from '@lp/platform/observability';
import { EmbeddedPostgres } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from './platform-config';
import { makeOwnerOnly, preparePrivateDataDir } from './private-data-dir';
import { ensureSigningSecret } from './signing-secret';
import { StartupError } from './startup-error';

/** Which adapter each port got; every one is chosen by its own variable (ARCHITECTURE.md, Runtime profiles). */
export interface PlatformRuntime {
  /** What this process is called in logs: the service name, or `standalone` for the all-in-one process. */
  processName: string;
  config: PlatformConfig;
  /** The process's logging (pino): the Nest apps it hosts log through it too, in one style. */
  logging: { params: LoggerParams; logger: LoggerService };
  /** The environment the runtime was started with: the services load their own keys from it. */
  env: Readonly<NodeJS.ProcessEnv>;
  dataDir: string;
  database: { url: string; embedded: boolean };
  messaging: { kind: 'rabbitmq'; url: string; prefix: string } | { kind: 'in-process'; prefix: string };
  cache: { redisUrl?: string; keyPrefix: string };
  jwt: JwtVerificationOptions;
  /** Present when tokens can be signed locally (HS256): used to print the embedded admin token. */
  signingSecret?: string;
  /** Stops what the runtime itself started (the embedded database). */
  close(): Promise<void>;
}

export { StartupError } from './startup-error';

/**
 * Resolves the runtime profile from configuration, starting the embedded database when
 * DATABASE_URL is unset. Production (NODE_ENV=production) refuses to start without explicit JWT
 * settings; elsewhere a missing secret is generated once and kept under DATA_DIR.
 */
export async function startPlatformRuntime(processName: string, env: NodeJS.ProcessEnv = process.env): Promise<PlatformRuntime> {
  const config = platformConfig.load(env);
  // Before anything logs: the embedded database below logs through it, in the same style as the apps.
  const logParams = loggerParams(processName, config.LOG_LEVEL, config.LOG_FORMAT ?? (config.DATABASE_URL ? 'json' : 'pretty'));
  const logging = { params: logParams, logger: installPlatformLogger(logParams) };
  const logger = new Logger('PlatformRuntime');
  const dataDir = resolve(config.DATA_DIR);
  const production = config.NODE_ENV === 'production';

  if (production && !config.JWT_SECRET && !config.JWT_JWKS_URI) {
    throw new StartupError('NODE_ENV=production requires JWT_SECRET or JWT_JWKS_URI (with JWT_ISSUER and JWT_AUDIENCE)');
  }
  const tightened = preparePrivateDataDir(dataDir);
  if (tightened > 0) logger.warn(`DATA_DIR ${dataDir}: made ${tightened} entries readable by this user only (an earlier version left them readable by others)`);
  const signingSecret = config.JWT_JWKS_URI ? undefined : (config.JWT_SECRET ?? ensureSigningSecret(dataDir));
  const jwt: JwtVerificationOptions = {
    ...(signingSecret ? { secret: signingSecret } : { jwksUri: config.JWT_JWKS_URI }),
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    maxTtlSeconds: config.JWT_MAX_TTL_SECONDS,
  };
  assertJwtVerificationOptions(jwt);

  const pgdata = resolve(dataDir, 'pgdata');
  const embedded = config.DATABASE_URL ? undefined : await EmbeddedPostgres.start(pgdata, { socketDirectory: resolve(dataDir, 'run') });
  // PGlite sets some modes past the umask (its initial cluster 0666, files PostgreSQL writes 0644).
  if (embedded) makeOwnerOnly(pgdata);
  const runtime: PlatformRuntime = {
    processName,
    config,
    logging,
    env,
    dataDir,
    database: { url: embedded?.url ?? (config.DATABASE_URL as string), embedded: !!embedded },
    messaging: config.AMQP_URL ? { kind: 'rabbitmq', url: config.AMQP_URL, prefix: config.AMQP_PREFIX } : { kind: 'in-process', prefix: config.AMQP_PREFIX },
    cache: { redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX },
    jwt,
    signingSecret,
    close: async () => {
      await embedded?.stop();
      if (embedded) makeOwnerOnly(pgdata);
    },
  };
  logger.log(
    `profile: database=${runtime.database.embedded ? 'embedded PGlite' : 'PostgreSQL'}, broker=${runtime.messaging.kind}, cache=${
      runtime.cache.redisUrl ? 'Redis' : 'in-memory'
    }, tokens=${jwt.secret ? 'HS256' : 'JWKS'}`,
  );
  return runtime;
}
