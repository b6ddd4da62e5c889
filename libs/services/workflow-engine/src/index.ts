export * from './workflow-engine.service-definition';
export { nodeTimeoutsJob } from './timeouts/node-timeouts.jobs';
