import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORRELATION_ID_PATTERN } from '@lp/contracts';
import { Tracing } from './trace-context';

export const CORRELATION_HEADER = 'x-correlation-id';

const storage = new AsyncLocalStorage<{ correlationId: string }>();

/**
 * The correlation id of the work in progress, carried HTTP → AMQP headers → logs. Kept in
 * AsyncLocalStorage so code deep in a call chain (the RPC client, the outbox writer, the logger)
 * reads it without threading it through every signature.
 */
export const CorrelationContext = {
  run<T>(correlationId: string | undefined | null, fn: () => T): T {
    return storage.run({ correlationId: CorrelationContext.accept(correlationId) }, fn);
  },
  current(): string | undefined {
    return storage.getStore()?.correlationId;
  },
  /**
   * A client-supplied id is kept when it is a sane token; otherwise `fallback` (the active trace's
   * id, when a trace is recorded: docs/operations/tracing.md) or a new UUID.
   */
  accept(candidate: string | undefined | null, fallback?: string): string {
    return candidate && CORRELATION_ID_PATTERN.test(candidate) ? candidate : (fallback ?? randomUUID());
  },
};

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
export function runCorrelated(req: CorrelatedRequest, res: ServerResponse, next: () => void): void {
  const id = correlationIdOf(req);
  res.setHeader('X-Correlation-Id', id);
  CorrelationContext.run(id, () => next());
}
