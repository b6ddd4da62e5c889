export * from './case-model';
export * from './cases-rpc';
export * from './case-events';
