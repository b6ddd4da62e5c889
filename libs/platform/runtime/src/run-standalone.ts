import { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { signAccessToken } from '@lp/platform/auth';
import { problem, PROBLEM_CONTENT_TYPE } from '@lp/platform/http';
import { CorrelationContext, metricsRegistry } from '@lp/platform/observability';
import { apiExplorerApp } from './api-explorer';
import { CONSOLE_PREFIX, consoleApp, consoleClientConfig, consoleHostConfig } from './console-host';
import { HealthController } from './health.controller';
import { PathDispatcher } from './path-dispatcher';
import { startPlatformRuntime } from './platform-runtime';
import { exitOnStartupError } from './run-service';
import { createServiceApp, openApiPath, ServiceApp } from './service-app';
import { ServiceDefinition } from './service-definition';
import { createHttpServer } from './http-server';
import { installShutdown } from './shutdown';

export const ADMIN_SUBJECT = 'admin';
export const DEFAULT_TENANT = 'default';
const ADMIN_TOKEN_TTL_SECONDS = 12 * 3600;

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.end(JSON.stringify(body));
}

/** Readiness of the whole process: every hosted service must be ready. */
async function readiness(apps: ServiceApp[]): Promise<{ ready: boolean; services: Record<string, unknown> }> {
  const services: Record<string, unknown> = {};
  let ready = true;
  for (const { definition, app } of apps) {
    try {
      services[definition.name] = ((await app.get(HealthController).ready()) as { details?: unknown }).details;
    } catch (error) {
      ready = false;
      services[definition.name] = (error as { errors?: unknown }).errors ?? { status: 'down' };
    }
  }
  return { ready, services };
}

/**
 * `npm start`: every service of the fleet in one process on the embedded defaults (unless the
 * adapter variables say otherwise), one port, requests dispatched by path prefix to the owning
 * service's app with no proxy hop.
 */
export async function runStandalone(services: ServiceDefinition[]): Promise<void> {
  const logger = new Logger('standalone');
  try {
    const runtime = await startPlatformRuntime('standalone');
    const apps: ServiceApp[] = [];
    for (const service of services) apps.push(await createServiceApp(service, runtime));

    const dispatcher = new PathDispatcher(
      apps.map(({ definition, http }) => ({
        name: definition.name,
        prefixes: [...definition.routePrefixes, openApiPath(definition)],
        handle: http,
      })),
    );

    const explorer = apiExplorerApp(apps.map(({ definition }) => ({ name: definition.name, url: openApiPath(definition) })));
    const consoleSettings = consoleHostConfig.load();
    const adminConsole = consoleApp({ directory: consoleSettings.CONSOLE_DIR, client: consoleClientConfig(consoleSettings, runtime.config) });
    const own = async (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0] ?? '';
      if (req.method === 'GET' && (path === '/docs' || path.startsWith('/docs/'))) {
        return explorer(req, res);
      }
      if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) return adminConsole(req, res);
      if (req.method === 'GET' && path === '/health/live') return sendJson(res, 200, { status: 'ok' });
      if (req.method === 'GET' && path === '/health/ready') {
        const { ready, services: detail } = await readiness(apps);
        return ready
          ? sendJson(res, 200, { status: 'ok', services: detail })
          : sendJson(res, 503, { ...problem(503, 'ServiceUnavailable', 'Not ready.'), services: detail }, PROBLEM_CONTENT_TYPE);
      }
      if (req.method === 'GET' && path === '/metrics') {
        res.setHeader('Content-Type', metricsRegistry.contentType);
        return res.end(await metricsRegistry.metrics());
      }
      const correlationId = CorrelationContext.accept(req.headers['x-correlation-id'] as string | undefined);
      sendJson(res, 404, { ...problem(404, 'NotFound', `No route for ${path}.`), correlationId, instance: path }, PROBLEM_CONTENT_TYPE);
    };

    const server = createHttpServer((req, res) =>
      dispatcher.dispatch(req, res, (rq, rs) => {
        own(rq, rs).catch(() => sendJson(rs, 500, problem(500, 'InternalError', 'An unexpected error occurred.'), PROBLEM_CONTENT_TYPE));
      }),
    );
    await new Promise<void>((resolve) => server.listen(runtime.config.PORT, runtime.config.HOST, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : runtime.config.PORT;

    installShutdown(logger, async () => {
      await server.drain(runtime.config.SHUTDOWN_DRAIN_MS);
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
