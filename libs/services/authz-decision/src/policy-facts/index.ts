export * from './sql-policy-facts-reader';
