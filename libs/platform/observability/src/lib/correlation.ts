import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { CORRELATION_ID_PATTERN } from '@lp/contracts';

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
