export * from './webhook-dispatcher.service-definition';
export * from './store';
export * from './subscriptions/subscription-secrets';
