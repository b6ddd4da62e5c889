export * from './authz-decision.service-definition';
