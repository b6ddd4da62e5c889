export * from './fleet-services';
