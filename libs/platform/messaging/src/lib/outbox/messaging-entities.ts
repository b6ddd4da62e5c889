import { OutboxMessage } from './outbox-message.entity';
import { ProcessedEvent } from './processed-event.entity';

/** The entities a service's DataSource lists to use the outbox and the idempotent consumer. */
export const MESSAGING_ENTITIES = [OutboxMessage, ProcessedEvent];
