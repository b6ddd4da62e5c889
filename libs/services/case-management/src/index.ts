export * from './case-management.service-definition';
