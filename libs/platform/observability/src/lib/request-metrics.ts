import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Observable } from 'rxjs';
import { finalize, tap } from 'rxjs/operators';
import { httpRequestDuration, rpcHandlerDuration } from './metrics';

/**
 * Records HTTP latency per route template (never per raw URL: ids would explode cardinality). A
 * middleware rather than an interceptor, so requests refused by a guard (401, 403, 429) count too.
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

/** Records RPC handler latency per pattern and outcome. */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    if (context.getType() === 'rpc') {
      const pattern = String(context.switchToRpc().getContext<{ getPattern?: () => string }>()?.getPattern?.() ?? context.getHandler().name);
      let outcome = 'ok';
      return next.handle().pipe(
        tap({ error: () => (outcome = 'error') }),
        finalize(() => rpcHandlerDuration.observe({ service: this.service, pattern, outcome }, seconds())),
      );
    }
    return next.handle();
  }
}
