import { selectedInstrumentations, tracedServiceName } from './tracing-sdk';

describe('tracing SDK settings', () => {
  it('names the service by OTEL_SERVICE_NAME, else by the app whose main started the process', () => {
    expect(tracedServiceName({ OTEL_SERVICE_NAME: 'edge' }, '/app/apps/mcp-gateway/src/main.ts')).toBe('edge');
    expect(tracedServiceName({}, '/app/apps/mcp-gateway/src/main.ts')).toBe('mcp-gateway');
    expect(tracedServiceName({}, '/work/apps/standalone/src/main.ts')).toBe('standalone');
    expect(tracedServiceName({}, '/work/bench/bench-server.process.ts')).toBe('legal-platform');
    expect(tracedServiceName({}, undefined)).toBe('legal-platform');
  });

  it('instruments http, express, pg and ioredis unless the OTEL_NODE_*_INSTRUMENTATIONS variables say otherwise', () => {
    expect(selectedInstrumentations({})).toEqual(['http', 'express', 'pg', 'ioredis']);
    expect(selectedInstrumentations({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'express, ioredis' })).toEqual(['http', 'pg']);
    expect(selectedInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg,unknown' })).toEqual(['http', 'pg']);
    expect(selectedInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,pg', OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' })).toEqual(['http']);
  });
});
