import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { answerMethodNotAllowed, isReadMethod, problem, PROBLEM_CONTENT_TYPE, READ_METHODS } from '@lp/platform/http';
import { correlationIdOf, installPlatformLogger, loggerParams, metricsRegistry } from '@lp/platform/observability';
import { withAnswerBaseline } from './answer-baseline';
import { CONSOLE_PREFIX, consoleApp, consoleClientConfig, consoleHostConfig } from './console-host';
import { createHttpServer } from './http-server';
import { platformConfig } from './platform-config';
import { exitOnStartupError } from './run-service';
import { installShutdown } from './shutdown';

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.end(JSON.stringify(body));
}

/** The probes and metrics every fleet member answers. */
const OWN_RESOURCES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * `apps/console`: the admin console as its own small app in the fleet, behind the same edge as the
 * APIs it calls. It holds no data and talks to no broker: static files, `/console/config.json`, and
 * the health and metrics routes every fleet member answers (ready once the build is there).
 */
export async function runConsole(): Promise<void> {
  const logger = new Logger('console');
  try {
    const config = platformConfig.load();
    // The fleet's one log style (it has no database, so JSON unless LOG_FORMAT says otherwise).
    installPlatformLogger(loggerParams('console', config.LOG_LEVEL, config.LOG_FORMAT ?? 'json'));
    const settings = consoleHostConfig.load();
    const app = consoleApp({ directory: settings.CONSOLE_DIR, client: consoleClientConfig(settings, config) });
    const built = () => existsSync(join(settings.CONSOLE_DIR, 'index.html'));
    const server = createHttpServer(
      withAnswerBaseline((req: IncomingMessage, res: ServerResponse) => {
        const path = (req.url ?? '/').split('?')[0] ?? '';
        // Read-only resources: HEAD is answered as GET (Node sends the headers only), any other method a 405.
        if (OWN_RESOURCES.has(path) && !isReadMethod(req)) return answerMethodNotAllowed(req, res, READ_METHODS);
        if (path === '/health/live') return sendJson(res, 200, { status: 'ok' });
        if (path === '/health/ready') {
          return built()
            ? sendJson(res, 200, { status: 'ok' })
            : sendJson(
                res,
                503,
                problem(503, 'Console.NotBuilt', `No console build in ${settings.CONSOLE_DIR}.`, { correlationId: correlationIdOf(req) }),
                PROBLEM_CONTENT_TYPE,
              );
        }
        if (path === '/metrics') {
          res.setHeader('Content-Type', metricsRegistry.contentType);
          void metricsRegistry.metrics().then((text) => res.end(text));
          return;
        }
        if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) return app(req, res);
        sendJson(res, 404, problem(404, 'NotFound', `No route for ${path}.`, { correlationId: correlationIdOf(req), instance: path }), PROBLEM_CONTENT_TYPE);
      }),
    );
    await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    installShutdown(logger, () => server.drain(config.SHUTDOWN_DRAIN_MS));
    if (!built()) logger.warn(`no console build in ${settings.CONSOLE_DIR}: run npm run build:console`);
    process.stdout.write(`ready: http://127.0.0.1:${port} (console)\n`);
  } catch (error) {
    exitOnStartupError(logger, error);
  }
}
