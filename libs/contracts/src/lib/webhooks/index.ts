export * from './webhook-event-patterns';
