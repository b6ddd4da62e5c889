export * from './decision-cache';
export * from './decision-cache-key';
export * from './decision-revision-keys';
export * from './policy-invalidation';
export * from './scope-facts.cache';
export * from './cached-relations.reader';
export * from './revision-stamped-near-cache';
export * from './revision-snapshot';
