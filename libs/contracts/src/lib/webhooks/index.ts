export * from './webhook-event-patterns';
export * from './webhook-subscription-model';
export * from './webhooks-rpc';
export * from './webhook-event-families';
