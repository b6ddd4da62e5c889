export * from './message-schema';
export * from './rpc-contract';
export * from './event-contract';
