export * from './workflow-runtime-events';
