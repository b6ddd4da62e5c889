import { randomUUID } from 'node:crypto';
import { EventEnvelope } from '@lp/contracts';
import { CorrelationContext } from '@lp/platform/observability';
import { isRoutingKey } from './topic-pattern';

/**
 * A new envelope for an event that happens now: a fresh `eventId` (the consumers' idempotency key)
 * and the correlation id of the work in progress, so the event can be followed back to the
 * request that caused it.
 */
export function createEventEnvelope<TPayload>(
  eventType: string,
  payload: TPayload,
  options: { tenantId: string | null; version?: number; occurredAt?: Date; eventId?: string },
): EventEnvelope<TPayload> {
  const envelope: EventEnvelope<TPayload> = {
    eventId: options.eventId ?? randomUUID(),
    eventType,
    version: options.version ?? 1,
    tenantId: options.tenantId,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    correlationId: CorrelationContext.current() ?? null,
    payload,
  };
  assertEventEnvelope(envelope);
  return envelope;
}

export class InvalidEventEnvelopeError extends Error {}

/** Refuses an envelope the topology cannot route or a consumer could not deduplicate. */
export function assertEventEnvelope(value: unknown): asserts value is EventEnvelope {
  const e = value as Partial<EventEnvelope> | null;
  const problems: string[] = [];
  if (typeof e !== 'object' || e === null) throw new InvalidEventEnvelopeError('An event envelope must be an object');
  if (typeof e.eventId !== 'string' || e.eventId.length === 0 || e.eventId.length > 128) problems.push('eventId: 1 to 128 characters');
  if (typeof e.eventType !== 'string' || !isRoutingKey(e.eventType)) problems.push('eventType: dot-separated words, no wildcards');
  if (!Number.isInteger(e.version) || (e.version as number) < 1) problems.push('version: a positive integer');
  if (e.tenantId !== null && typeof e.tenantId !== 'string') problems.push('tenantId: a string or null');
  if (typeof e.occurredAt !== 'string' || Number.isNaN(Date.parse(e.occurredAt))) problems.push('occurredAt: an ISO timestamp');
  if (e.correlationId !== null && typeof e.correlationId !== 'string') problems.push('correlationId: a string or null');
  if (!('payload' in e)) problems.push('payload: required');
  if (problems.length > 0) throw new InvalidEventEnvelopeError(`Invalid event envelope: ${problems.join('; ')}`);
}

/** Parses a delivered body; throws for anything that is not a valid envelope (a poison message). */
export function parseEventEnvelope(content: string | Buffer): EventEnvelope {
  const value: unknown = JSON.parse(content.toString());
  assertEventEnvelope(value);
  return value;
}
