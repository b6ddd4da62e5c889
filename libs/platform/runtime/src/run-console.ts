import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IncomingMessage, ServerResponse } from 'node:http';
import pino, { Logger } from 'pino';
import pretty from 'pino-pretty';
import { answerMethodNotAllowed, isReadMethod, problem, PROBLEM_CONTENT_TYPE, READ_METHODS } from '@lp/platform/http/plain';
import { collectProcessMetrics, correlationIdOf, metricsRegistry } from '@lp/platform/observability/plain';
import { withAnswerBaseline } from './answer-baseline';
import { CONSOLE_PREFIX, consoleApp, consoleClientConfig, consoleHostConfig } from './console-host';
import { createHttpServer } from './http-server';
import { platformConfig } from './platform-config';
import { exitOnStartupError } from './startup-error';
import { installShutdown } from './shutdown';

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.end(JSON.stringify(body));
}

/** The probes and metrics every fleet member answers. */
const OWN_RESOURCES = new Set(['/health/live', '/health/ready', '/metrics']);

/** The fleet's log lines (pino, `service` in each), without Nest: JSON unless LOG_FORMAT says pretty. */
function consoleLogger(level: string, format: string | undefined): { log(message: string): void; warn(message: string): void; error(message: string): void } {
  const options = { level, base: { service: 'console' } };
  const logger: Logger = format === 'pretty' ? pino(options, pretty({ sync: true, singleLine: true, ignore: 'pid,hostname,service' })) : pino(options);
  return { log: (message) => logger.info(message), warn: (message) => logger.warn(message), error: (message) => logger.error(message) };
}

/**
 * `apps/console` (`@lp/platform/runtime/console`): the admin console as its own small app in the
 * fleet, behind the same edge as the APIs it calls. It holds no data and talks to no broker: static
 * files, `/console/config.json`, and the health and metrics routes every fleet member answers (ready
 * once the build is there). Plain Node and Express: it loads neither Nest nor TypeORM (the `plain`
 * entry points of the platform libs), about half the memory of a process that does.
 */
export async function runConsole(): Promise<void> {
  let logger = consoleLogger('info', process.env.LOG_FORMAT);
  try {
    const config = platformConfig.load();
    // The fleet's one log style (it has no database, so JSON unless LOG_FORMAT says otherwise).
    logger = consoleLogger(config.LOG_LEVEL, config.LOG_FORMAT);
    collectProcessMetrics();
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
