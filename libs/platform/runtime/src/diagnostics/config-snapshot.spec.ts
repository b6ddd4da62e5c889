import { randomBytes } from 'node:crypto';
import { ConfigRegistry, declareConfig } from '@lp/platform/config';
import { buildConfigSnapshot } from './config-snapshot';

describe('buildConfigSnapshot', () => {
  const registry = new ConfigRegistry();
  declareConfig(
    'platform',
    {
      JWT_SECRET: { type: 'string', group: 'identity', description: 'secret', sensitive: true, minLength: 32 },
      DATABASE_URL: { type: 'url', group: 'persistence', description: 'db', sensitive: true },
      JWT_ISSUER: { type: 'string', group: 'identity', description: 'iss', default: 'legal-platform' },
    },
    { registry },
  );
  declareConfig('billing', { BILLING_API_KEY: { type: 'string', group: 'billing', description: 'key', sensitive: true, minLength: 20 } }, { registry });
  declareConfig('tickets', { TICKETS_URL: { type: 'url', group: 'tickets', description: 'url' } }, { registry });

  const secret = randomBytes(27).toString('base64url');
  const env = { JWT_SECRET: secret, DATABASE_URL: 'postgres://app:p4ssw0rd@db/app', BILLING_API_KEY: 'short-key', TICKETS_URL: 'https://t.example' };

  it("reports the runtime's keys and the service's own, not another service's", () => {
    const keys = buildConfigSnapshot('billing', env, registry).keys.map((k) => k.key);
    expect(keys).toEqual(['JWT_SECRET', 'DATABASE_URL', 'JWT_ISSUER', 'BILLING_API_KEY']);
  });

  it('tells missing, too-short and configured apart, and shows a secret only by its length', () => {
    const snapshot = buildConfigSnapshot('billing', { ...env, DATABASE_URL: '  ' }, registry);
    const byKey = new Map(snapshot.keys.map((k) => [k.key, k]));
    expect(byKey.get('JWT_SECRET')).toEqual(expect.objectContaining({ status: 'configured', sensitive: true, length: secret.length, source: 'env' }));
    expect(byKey.get('JWT_SECRET')).not.toHaveProperty('value');
    expect(byKey.get('BILLING_API_KEY')).toEqual(expect.objectContaining({ status: 'too-short', length: 9 }));
    expect(byKey.get('DATABASE_URL')).toEqual(expect.objectContaining({ status: 'missing' }));
    expect(byKey.get('JWT_ISSUER')).toEqual(expect.objectContaining({ status: 'configured', source: 'default', value: 'legal-platform' }));
  });

  it('never contains a secret value anywhere in the serialized snapshot', () => {
    const text = JSON.stringify(buildConfigSnapshot('billing', env, registry));
    expect(text).not.toContain(secret);
    expect(text).not.toContain('short-key');
    expect(text).not.toContain('p4ssw0rd');
  });

  it('falls back to the JWT keys when nothing is declared for the service (spec rule 4)', () => {
    const keys = buildConfigSnapshot('billing', env, new ConfigRegistry()).keys.map((k) => k.key);
    expect(keys).toEqual(['JWT_SECRET', 'JWT_ISSUER', 'JWT_AUDIENCE']);
  });
});
