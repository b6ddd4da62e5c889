export * from './policy-changes';
export * from './policy-change.module';
