import type { IncomingMessage } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import pretty from 'pino-pretty';
import { correlationIdOf } from './correlation';
import { loggedError } from './logged-error';
import { PROBE_PATHS } from './readiness';
import { Tracing } from './trace-context';

/**
 * nestjs-pino settings: JSON lines with the service name and correlation id (and the trace and span
 * ids while tracing records), credentials redacted,
 * a failed statement's values never printed (`loggedError`),
 * probe traffic not logged (a kubelet polling every few seconds would drown real requests).
 * `format: 'pretty'` prints one readable line per entry instead (pino-pretty, synchronously so
 * nothing is lost at exit): the default of the embedded profile, where a person reads the terminal.
 */
export function loggerParams(service: string, level: string, format: 'json' | 'pretty' = 'json'): Params {
  return {
    pinoHttp: {
      level,
      ...(format === 'pretty'
        ? {
            stream: pretty({
              sync: true,
              colorize: process.stdout.isTTY,
              translateTime: 'HH:MM:ss.l',
              ignore: 'pid,hostname,service,req,res,responseTime',
              singleLine: true,
            }),
          }
        : {}),
      base: { service },
      // While tracing records, every line written inside a span names it (`trace_id`, `span_id`).
      ...(Tracing.enabled && { mixin: () => Tracing.logFields() ?? {} }),
      genReqId: (req: IncomingMessage) => correlationIdOf(req as never),
      customProps: (req: IncomingMessage) => ({ correlationId: (req as { correlationId?: string }).correlationId }),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        err: loggedError,
      },
      autoLogging: { ignore: (req: IncomingMessage) => PROBE_PATHS.some((p) => req.url?.startsWith(p)) },
    },
  };
}

/**
 * Nest's own start-up chatter: one line per module (InstanceLoader), per controller and per route
 * (RoutesResolver, RouterExplorer) and per app started. Hundreds of lines for the fleet in one
 * process, none of which an operator acts on: kept at debug (`LOG_LEVEL=debug` shows them).
 */
const NEST_BOOT_CONTEXTS: ReadonlySet<unknown> = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'NestMicroservice',
]);

/** The process's one Nest logger: pino (nestjs-pino's adapter), with Nest's boot lines at debug. */
export class PlatformLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    // Nest's own loggers pass their context as the last parameter.
    if (NEST_BOOT_CONTEXTS.has(optionalParams[optionalParams.length - 1])) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

/**
 * Makes pino the logger of everything Nest logs in this process from now on, including what is
 * logged before any Nest app exists (the embedded database, the runtime profile), so the terminal
 * shows one log style. nestjs-pino keeps one root pino per process: the first params win.
 */
export function installPlatformLogger(params: Params): PlatformLogger {
  const logger = new PlatformLogger(new PinoLogger(params), params);
  NestLogger.overrideLogger(logger);
  return logger;
}
