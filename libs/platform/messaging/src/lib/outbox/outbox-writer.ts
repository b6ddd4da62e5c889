import { Injectable } from '@nestjs/common';
import { SpanKind, Tracing } from '@lp/platform/observability';
import { AnyEventContract, event, EventEnvelope, EventPayloadOf } from '@lp/contracts';
import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { assertEventEnvelope, createEventEnvelope } from '../events/event-envelope';
import { OutboxMessage } from './outbox-message.entity';

/** Set on the transaction's query runner so the relay can publish right after the commit. */
export const OUTBOX_WRITTEN = 'lp.messaging.outboxWritten';

export class OutboxTransactionRequiredError extends Error {
  constructor() {
    super('OutboxWriter.add needs the EntityManager of an open transaction: the event must commit or roll back with the change it reports');
  }
}

/**
 * A producer span for one event written, ended at once (the publish itself happens after the
 * commit): its `traceparent` is stored with the row, and the event's consumers are its children.
 */
function producerSpan(envelope: EventEnvelope): string | null {
  const started = Tracing.start(`publish ${envelope.eventType}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'create',
      'messaging.destination.name': envelope.eventType,
      'messaging.message.id': envelope.eventId,
    },
  });
  if (!started) return null;
  started.span.end();
  return Tracing.traceparent(started.context);
}

/**
 * Writes integration events into the outbox in the caller's transaction, through the caller's
 * EntityManager: the events exist if and only if the state change commits. A manager without an
 * open transaction is refused, since writing through it would break exactly that guarantee (and on
 * PGlite a second connection inside a transaction would wait forever).
 */
@Injectable()
export class OutboxWriter {
  async add(manager: EntityManager, envelopes: EventEnvelope | readonly EventEnvelope[]): Promise<void> {
    const list: readonly EventEnvelope[] = Array.isArray(envelopes) ? envelopes : [envelopes as EventEnvelope];
    const queryRunner = manager.queryRunner;
    if (!queryRunner?.isTransactionActive) throw new OutboxTransactionRequiredError();
    if (list.length === 0) return;
    list.forEach((envelope) => assertEventEnvelope(envelope));
    const rows: Array<Pick<OutboxMessage, 'eventId' | 'eventType' | 'envelope' | 'traceparent'>> = list.map((envelope) => ({
      eventId: envelope.eventId,
      eventType: envelope.eventType,
      envelope,
      traceparent: Tracing.enabled ? producerSpan(envelope) : null,
    }));
    // TypeORM's deep-partial type cannot follow a jsonb column's `unknown` payload.
    await manager.insert(OutboxMessage, rows as QueryDeepPartialEntity<OutboxMessage>[]);
    queryRunner.data[OUTBOX_WRITTEN] = true;
  }

  /** One event of a contract: the payload is checked against the contract's schema before it is written; resolves the envelope written. */
  async addEvent<C extends AnyEventContract>(manager: EntityManager, contract: C, payload: EventPayloadOf<C>, tenantId: string): Promise<EventEnvelope> {
    const { type, payload: checked } = event(contract, payload);
    const envelope = createEventEnvelope(type, checked, { tenantId });
    await this.add(manager, envelope);
    return envelope;
  }
}
