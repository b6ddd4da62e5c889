export * from './operations.service-definition';
