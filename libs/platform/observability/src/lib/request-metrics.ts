import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration } from './metrics';

/**
 * Records HTTP latency per route template (never per raw URL: ids would explode cardinality). A
 * middleware rather than an interceptor, so requests refused by a guard (401, 403, 429) count too.
 * RPC requests are timed the same way, in the transport (`timedRespond` in messaging).
 */
export function httpMetricsMiddleware(service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe({ service, method: req.method, route, status: String(res.statusCode) }, seconds);
    });
    next();
  };
}
