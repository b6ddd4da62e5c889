export * from './webhook-dispatcher.service-definition';
export * from './store';
export * from './subscriptions/subscription-secrets';
export { DeliveryScheduler } from './deliveries/delivery-scheduler';
export { WebhookClock } from './deliveries/webhook-clock';
export { WebhookDispatcherJobs } from './retention/delivery-retention.jobs';
