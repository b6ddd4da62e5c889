import type { IncomingMessage } from 'node:http';
import { Params } from 'nestjs-pino';
import pretty from 'pino-pretty';
import { correlationIdOf } from './correlation.middleware';
import { loggedError } from './logged-error';
import { PROBE_PATHS } from './readiness';

/**
 * nestjs-pino settings: JSON lines with the service name and correlation id, credentials redacted,
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
