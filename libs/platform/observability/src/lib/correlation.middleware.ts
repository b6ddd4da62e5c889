import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, NestMiddleware } from '@nestjs/common';
import { CORRELATION_HEADER, CorrelationContext } from './correlation';
import { Tracing } from './trace-context';

/** Any Node request (an Express one included): the standalone's dispatcher sees it before Express does. */
type CorrelatedRequest = IncomingMessage & { correlationId?: string };

/**
 * The request's correlation id: the client's `X-Correlation-Id` when sane, else the id of the trace
 * the request's server span belongs to (tracing on), else a new one. Idempotent per request.
 */
export function correlationIdOf(req: CorrelatedRequest): string {
  req.correlationId ??= CorrelationContext.accept(req.headers[CORRELATION_HEADER] as string | undefined, Tracing.traceId());
  return req.correlationId;
}

/**
 * Runs the rest of the request inside the correlation context and echoes the id back, so a
 * client can quote it and an operator can follow it through AMQP headers and logs.
 */
@Injectable()
export class CorrelationMiddleware implements NestMiddleware {
  use(req: CorrelatedRequest, res: ServerResponse, next: () => void): void {
    const id = correlationIdOf(req);
    res.setHeader('X-Correlation-Id', id);
    CorrelationContext.run(id, () => next());
  }
}
