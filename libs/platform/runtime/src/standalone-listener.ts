import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { answerMethodNotAllowed, isReadMethod, problem, PROBLEM_CONTENT_TYPE, READ_METHODS } from '@lp/platform/http';
import { correlationIdOf, metricsRegistry } from '@lp/platform/observability';
import { withAnswerBaseline } from './answer-baseline';
import { apiExplorerApp } from './api-explorer';
import { CONSOLE_PREFIX, consoleApp, ConsoleClientConfig } from './console-host';
import { HealthController } from './health.controller';
import { PathDispatcher } from './path-dispatcher';
import { openApiPath, ServiceApp } from './service-app';

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

/** The process's own read-only resources (the probes and metrics of the whole process). */
const PROCESS_RESOURCES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * The standalone's one request listener: each request goes to the app of the service that owns its
 * path prefix (its routes and its OpenAPI document), with no proxy hop; the rest is the process's
 * own (the API explorer over every document, the console, the probes and metrics of the whole
 * process, a 404 problem). Every answer carries the security headers and the correlation id,
 * whoever gives it (`withAnswerBaseline`).
 */
export function standaloneListener(apps: ServiceApp[], options: { console: { directory: string; client: ConsoleClientConfig } }): RequestListener {
  const dispatcher = new PathDispatcher(
    apps.map(({ definition, http }) => ({
      name: definition.name,
      prefixes: [...definition.routePrefixes, openApiPath(definition)],
      handle: http,
    })),
  );
  const explorer = apiExplorerApp(apps.map(({ definition }) => ({ name: definition.name, url: openApiPath(definition) })));
  const adminConsole = consoleApp(options.console);

  const own = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '';
    // Every method: the explorer answers a method its paths do not have with a 405, a path it lacks with a 404.
    if (path === '/docs' || path.startsWith('/docs/')) return explorer(req, res);
    if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) return adminConsole(req, res);
    // HEAD is answered as GET (Node sends the headers only); any other method is a 405.
    if (PROCESS_RESOURCES.has(path) && !isReadMethod(req)) return answerMethodNotAllowed(req, res, READ_METHODS);
    if (path === '/health/live') return sendJson(res, 200, { status: 'ok' });
    if (path === '/health/ready') {
      const { ready, services: detail } = await readiness(apps);
      return ready
        ? sendJson(res, 200, { status: 'ok', services: detail })
        : sendJson(
            res,
            503,
            { ...problem(503, 'ServiceUnavailable', 'Not ready.', { correlationId: correlationIdOf(req) }), services: detail },
            PROBLEM_CONTENT_TYPE,
          );
    }
    if (path === '/metrics') {
      res.setHeader('Content-Type', metricsRegistry.contentType);
      return res.end(await metricsRegistry.metrics());
    }
    sendJson(res, 404, problem(404, 'NotFound', `No route for ${path}.`, { correlationId: correlationIdOf(req), instance: path }), PROBLEM_CONTENT_TYPE);
  };

  return withAnswerBaseline((req, res) =>
    dispatcher.dispatch(req, res, (rq, rs) => {
      own(rq, rs).catch(() =>
        sendJson(rs, 500, problem(500, 'InternalError', 'An unexpected error occurred.', { correlationId: correlationIdOf(rq) }), PROBLEM_CONTENT_TYPE),
      );
    }),
  );
}
