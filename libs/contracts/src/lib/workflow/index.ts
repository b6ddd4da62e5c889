export * from './workflow-runtime-events';
export * from './workflow-definition-events';
export * from './workflow-rpc';
export * from './permission-request-flow';
export * from './workflow-management-events';
