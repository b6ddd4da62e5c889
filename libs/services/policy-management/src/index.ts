export * from './policy-management.service-definition';
