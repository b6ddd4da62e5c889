export * from './workflow-engine.service-definition';
