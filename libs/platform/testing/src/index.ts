export * from './lib/servers';
