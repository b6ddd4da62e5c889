import { declareConfig } from './config-declaration';
import { ConfigRegistry } from './config-registry';

describe('ConfigRegistry', () => {
  const declareInto = (registry: ConfigRegistry) => {
    declareConfig(
      'authz-decision',
      {
        PORT: { type: 'int', group: 'http', description: 'HTTP port', default: 3000 },
        DATABASE_URL: { type: 'url', group: 'database', description: 'PostgreSQL (authz-decision)' },
        JWT_SECRET: { type: 'string', group: 'jwt', description: 'HS256 secret', minLength: 32, sensitive: true },
      },
      { registry },
    );
    declareConfig(
      'operations',
      {
        DATABASE_URL: { type: 'url', group: 'db', description: 'PostgreSQL (operations)', required: true },
        AMQP_URL: { type: 'url', group: 'broker', description: 'RabbitMQ' },
      },
      { registry },
    );
  };

  it('lists every declared key once, the first declaration of a duplicate winning', () => {
    const registry = new ConfigRegistry();
    declareInto(registry);

    const listed = registry.list();
    expect(listed.map((k) => `${k.owner}:${k.key}`)).toEqual([
      'authz-decision:PORT',
      'authz-decision:DATABASE_URL',
      'authz-decision:JWT_SECRET',
      'operations:AMQP_URL',
    ]);
    expect(listed.find((k) => k.key === 'DATABASE_URL')).toMatchObject({ group: 'database', required: false });
  });

  it('reports missing, too-short and configured, showing a secret only by its length', () => {
    const registry = new ConfigRegistry();
    declareInto(registry);

    const report = registry.report({ DATABASE_URL: 'postgres://app:pw@db:5432/lp', JWT_SECRET: 'short-secret', AMQP_URL: ' ' });

    expect(report).toEqual([
      expect.objectContaining({ key: 'PORT', status: 'configured', source: 'default', length: 4, value: '3000' }),
      expect.objectContaining({
        key: 'DATABASE_URL',
        owner: 'authz-decision',
        status: 'configured',
        source: 'env',
        length: 28,
        value: 'postgres://app:***@db:5432/lp',
      }),
      {
        key: 'JWT_SECRET',
        owner: 'authz-decision',
        group: 'jwt',
        description: 'HS256 secret',
        required: false,
        sensitive: true,
        status: 'too-short',
        source: 'env',
        length: 12,
      },
      expect.objectContaining({ key: 'AMQP_URL', status: 'missing' }),
    ]);
    expect(JSON.stringify(report)).not.toContain('short-secret');
    expect(report[3]).not.toHaveProperty('value');
    expect(report[3]).not.toHaveProperty('length');

    const secret = registry.report({ JWT_SECRET: 's'.repeat(40) }).find((e) => e.key === 'JWT_SECRET');
    expect(secret).toMatchObject({ status: 'configured', length: 40 });
    expect(secret).not.toHaveProperty('value');
  });

  it('reports a key whose default is blank as missing', () => {
    const registry = new ConfigRegistry();
    declareConfig('svc', { AMQP_PREFIX: { type: 'string', group: 'messaging', description: 'd', default: '' } }, { registry });
    expect(registry.report({})).toEqual([expect.objectContaining({ key: 'AMQP_PREFIX', status: 'missing' })]);
    expect(registry.report({ AMQP_PREFIX: 'lp.' })).toEqual([expect.objectContaining({ status: 'configured', value: 'lp.' })]);
  });

  it('checks only the JWT keys when nothing is declared', () => {
    const report = new ConfigRegistry().report({ JWT_ISSUER: 'https://issuer.example' });
    expect(report.map((e) => [e.key, e.status, e.value])).toEqual([
      ['JWT_SECRET', 'missing', undefined],
      ['JWT_ISSUER', 'configured', 'https://issuer.example'],
      ['JWT_AUDIENCE', 'missing', undefined],
    ]);
    expect(report[0]!.sensitive).toBe(true);
  });

  it('receives declarations made without an explicit registry', () => {
    declareConfig('registry-spec-service', {
      REGISTRY_SPEC_KEY: { type: 'string', group: 'g', description: 'registered globally' },
    });
    expect(ConfigRegistry.global.list()).toContainEqual(expect.objectContaining({ key: 'REGISTRY_SPEC_KEY', owner: 'registry-spec-service' }));
  });
});
