import type { IncomingMessage } from 'node:http';
import { Params } from 'nestjs-pino';
import { correlationIdOf } from './correlation.middleware';
import { PROBE_PATHS } from './readiness';

/**
 * nestjs-pino settings: JSON lines with the service name and correlation id, credentials redacted,
 * probe traffic not logged (a kubelet polling every few seconds would drown real requests).
 */
export function loggerParams(service: string, level: string): Params {
  return {
    pinoHttp: {
      level,
      base: { service },
      genReqId: (req: IncomingMessage) => correlationIdOf(req as never),
      customProps: (req: IncomingMessage) => ({ correlationId: (req as { correlationId?: string }).correlationId }),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
      autoLogging: { ignore: (req: IncomingMessage) => PROBE_PATHS.some((p) => req.url?.startsWith(p)) },
    },
  };
}
