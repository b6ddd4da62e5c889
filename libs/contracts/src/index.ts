export * from './lib/authorization-action';
export * from './lib/permission-code';
export * from './lib/data-scope';
export * from './lib/trusted-caller';
export * from './lib/decision';
export * from './lib/event-envelope';
export * from './lib/patterns';
export * from './lib/problem';
