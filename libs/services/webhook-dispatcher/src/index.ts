export * from './webhook-dispatcher.service-definition';
