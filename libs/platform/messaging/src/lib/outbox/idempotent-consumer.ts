import { EventEnvelope } from '@lp/contracts';
import { DataSource, EntityManager } from 'typeorm';
import type { EventHandler } from '../events/event-bus';
import { ProcessedEvent } from './processed-event.entity';
import { qualifiedTableName } from './table-name';

/**
 * Makes at-least-once delivery effectively-once for one consumer: in one transaction it records
 * (consumer, eventId) in `processed_event` and runs the work only when the record is new. A
 * redelivered or re-published event is skipped; if the work fails, the record rolls back with it
 * and the next delivery runs it again. Two deliveries racing on the same event serialize on the
 * primary key, so only one runs the work.
 *
 * Several handlers of one service reacting to the same event need one consumer name each
 * (`webhook-dispatcher:deliveries`), or the first one would mark the event done for all.
 */
export class IdempotentConsumer {
  constructor(
    private readonly dataSource: DataSource,
    readonly consumer: string,
  ) {
    if (consumer.length === 0 || consumer.length > 200) throw new Error(`Invalid consumer name "${consumer}"`);
  }

  /** Resolves true when the work ran, false when this consumer had already processed the event. */
  async process(envelope: Pick<EventEnvelope, 'eventId'>, work: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    const table = qualifiedTableName(this.dataSource, ProcessedEvent);
    return this.dataSource.transaction(async (manager) => {
      const claimed: unknown[] = await manager.query(
        `INSERT INTO ${table} ("consumer", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "event_id"`,
        [this.consumer, envelope.eventId],
      );
      if (claimed.length === 0) return false;
      await work(manager);
      return true;
    });
  }

  /** An EventBus handler running `work` at most once per event, inside the idempotency transaction. */
  handler(work: (envelope: EventEnvelope, manager: EntityManager) => Promise<void>): EventHandler {
    return async (envelope) => {
      await this.process(envelope, (manager) => work(envelope, manager));
    };
  }
}
