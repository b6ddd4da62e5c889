export * from './lib/messaging-profile';
export * from './lib/messaging-names';
export * from './lib/messaging-factories';
export * from './lib/messaging.module';

export * from './lib/rpc/rpc-client';
export * from './lib/rpc/rpc-errors';
export * from './lib/rpc/rpc-routes';
export * from './lib/rpc/rpc-problem';
export * from './lib/rpc/rpc-problem.filter';
export * from './lib/rpc/rpc-controller.decorator';
export * from './lib/rpc/rpc-handler.decorator';
export * from './lib/rpc/rpc-queue-options';
export * from './lib/rpc/rpc-microservice-options';
export * from './lib/rpc/rabbitmq-rpc-client';
export * from './lib/rpc/rabbitmq-rpc-server';
export * from './lib/rpc/in-process-rpc-client';
export * from './lib/rpc/in-process-rpc-server';
export * from './lib/rpc/in-process-rpc-context';

export * from './lib/events/event-bus';
export * from './lib/events/event-envelope';
export * from './lib/events/topic-pattern';
export * from './lib/events/rabbitmq-event-bus';
export * from './lib/events/in-process-event-bus';

export * from './lib/in-process/in-process-broker';

export * from './lib/outbox/outbox-message.entity';
export * from './lib/outbox/processed-event.entity';
export * from './lib/outbox/messaging-entities';
export * from './lib/outbox/messaging-tables.migration';
export * from './lib/outbox/outbox-writer';
export * from './lib/outbox/outbox-relay';
export * from './lib/outbox/outbox.jobs';
export * from './lib/outbox/idempotent-consumer';
export * from './lib/outbox/table-name';
