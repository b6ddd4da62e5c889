export * from './workflow-runtime-events';
export * from './workflow-definition-events';
export * from './permission-request-flow';
