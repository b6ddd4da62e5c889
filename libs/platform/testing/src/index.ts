export * from './lib/servers';
export * from './lib/tcp-outage-proxy';
