export * from './webhook-dispatcher.service-definition';
export { DeliveryScheduler } from './deliveries/delivery-scheduler';
export { WebhookClock } from './deliveries/webhook-clock';
