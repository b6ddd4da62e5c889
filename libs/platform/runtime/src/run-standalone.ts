import { Logger } from '@nestjs/common';
import { collectProcessMetrics } from '@lp/platform/observability';
import { signAccessToken } from '@lp/platform/auth';
import { consoleClientConfig, consoleHostConfig } from './console-host';
import { startPlatformRuntime } from './platform-runtime';
import { exitOnStartupError } from './startup-error';
import { createServiceApp, ServiceApp } from './service-app';
import { standaloneListener } from './standalone-listener';
import { ServiceDefinition } from './service-definition';
import { createHttpServer } from './http-server';
import { installShutdown } from './shutdown';
import { admitHttpRequests } from '@lp/platform/admission';
import { processAdmission } from './process-admission';

export const ADMIN_SUBJECT = 'admin';
export const DEFAULT_TENANT = 'default';
const ADMIN_TOKEN_TTL_SECONDS = 12 * 3600;

/**
 * `npm start`: every service of the fleet in one process on the embedded defaults (unless the
 * adapter variables say otherwise), one port, requests dispatched by path prefix to the owning
 * service's app with no proxy hop.
 */
export async function runStandalone(services: ServiceDefinition[]): Promise<void> {
  const logger = new Logger('standalone');
  // The process's CPU, memory, heap and event-loop lag on /metrics (the dashboards' process rows).
  collectProcessMetrics();
  try {
    const runtime = await startPlatformRuntime('standalone');
    const admission = processAdmission(runtime);
    const apps: ServiceApp[] = [];
    for (const service of services) apps.push(await createServiceApp(service, runtime));

    const consoleSettings = consoleHostConfig.load();
    const server = createHttpServer(
      admitHttpRequests(
        standaloneListener(apps, { console: { directory: consoleSettings.CONSOLE_DIR, client: consoleClientConfig(consoleSettings, runtime.config) } }),
        admission.controller,
      ),
    );
    await new Promise<void>((resolve) => server.listen(runtime.config.PORT, runtime.config.HOST, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : runtime.config.PORT;

    installShutdown(logger, async () => {
      await server.drain(runtime.config.SHUTDOWN_DRAIN_MS);
      admission.close();
      // Reverse order: callers stop before the services they call.
      for (const { app } of [...apps].reverse()) await app.close();
      await runtime.close();
    });

    const base = `http://127.0.0.1:${port}`;
    const profile = [
      runtime.database.embedded ? 'embedded PostgreSQL (PGlite)' : 'PostgreSQL',
      runtime.messaging.kind === 'rabbitmq' ? 'RabbitMQ' : 'in-process broker',
      runtime.cache.redisUrl ? 'Redis' : 'in-memory cache',
    ].join(', ');
    process.stdout.write(
      `ready: ${base}\n` +
        `  API explorer  ${base}/docs\n` +
        `  console       ${base}/console\n` +
        `  services      ${apps.map((a) => a.definition.name).join(', ')}\n` +
        `  profile       ${profile}\n` +
        `  data          ${runtime.dataDir}\n`,
    );
    if (runtime.signingSecret) {
      const token = signAccessToken(
        { sub: ADMIN_SUBJECT, tenantId: DEFAULT_TENANT, ttlSeconds: ADMIN_TOKEN_TTL_SECONDS },
        { secret: runtime.signingSecret, issuer: runtime.config.JWT_ISSUER, audience: runtime.config.JWT_AUDIENCE },
      );
      process.stdout.write(`admin token (subject "${ADMIN_SUBJECT}", tenant "${DEFAULT_TENANT}", valid 12h):\n${token}\n`);
    }
  } catch (error) {
    exitOnStartupError(logger, error);
  }
}
