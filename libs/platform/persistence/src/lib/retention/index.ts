export * from './batched-purge';
export * from './retention-run';
