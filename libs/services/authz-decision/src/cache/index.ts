export * from './decision-cache';
export * from './decision-cache-key';
export * from './decision-revision-keys';
export * from './policy-invalidation';
