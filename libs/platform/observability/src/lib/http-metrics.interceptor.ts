import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import { finalize, tap } from 'rxjs/operators';
import { httpRequestDuration, rpcHandlerDuration } from './metrics';

/** Records HTTP and RPC latency per route template (never per raw URL: ids would explode cardinality). */
@Injectable()
export class RequestMetricsInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    if (context.getType() === 'http') {
      const req = context.switchToHttp().getRequest<Request>();
      const res = context.switchToHttp().getResponse<Response>();
      res.once('finish', () => {
        const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
        httpRequestDuration.observe({ service: this.service, method: req.method, route, status: String(res.statusCode) }, seconds());
      });
      return next.handle();
    }
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
