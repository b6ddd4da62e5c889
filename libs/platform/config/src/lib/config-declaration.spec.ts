import { declareConfig } from './config-declaration';
import { ConfigRegistry } from './config-registry';
import { ConfigValidationError } from './config-validation-error';

// Compile-time equality: `npm run typecheck` fails when the inferred value types drift.
type Equals<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

const declare = <const T extends Parameters<typeof declareConfig>[1]>(spec: T) => declareConfig('test-service', spec, { registry: new ConfigRegistry() });

const serviceConfig = () =>
  declare({
    PORT: { type: 'int', group: 'http', description: 'HTTP port', default: 3000, min: 1, max: 65535 },
    DATA_DIR: { type: 'string', group: 'storage', description: 'Embedded data', default: './.data' },
    DATABASE_URL: { type: 'url', group: 'database', description: 'PostgreSQL; PGlite when unset' },
    JWT_SECRET: { type: 'string', group: 'jwt', description: 'HS256 secret', required: true, minLength: 32, sensitive: true },
    TRACE: { type: 'boolean', group: 'observability', description: 'Verbose tracing', default: false },
    LOG_LEVEL: { type: 'string', group: 'observability', description: 'Log level', oneOf: ['debug', 'info', 'warn'], default: 'info' },
  });

const SECRET = 'x'.repeat(32);

describe('declareConfig().load', () => {
  it('parses each key to its declared type', () => {
    const cfg = serviceConfig().load({
      PORT: '8080',
      DATA_DIR: '/var/lib/lp',
      DATABASE_URL: 'postgres://app:pw@db:5432/lp',
      JWT_SECRET: SECRET,
      TRACE: 'TRUE',
      LOG_LEVEL: 'warn',
    });

    expect(cfg).toEqual({
      PORT: 8080,
      DATA_DIR: '/var/lib/lp',
      DATABASE_URL: 'postgres://app:pw@db:5432/lp',
      JWT_SECRET: SECRET,
      TRACE: true,
      LOG_LEVEL: 'warn',
    });
    const typed: [
      Equals<typeof cfg.PORT, number>,
      Equals<typeof cfg.DATA_DIR, string>,
      Equals<typeof cfg.DATABASE_URL, string | undefined>,
      Equals<typeof cfg.JWT_SECRET, string>,
      Equals<typeof cfg.TRACE, boolean>,
      Equals<typeof cfg.LOG_LEVEL, 'debug' | 'info' | 'warn'>,
    ] = [true, true, true, true, true, true];
    expect(typed).toEqual([true, true, true, true, true, true]);
  });

  it('applies defaults to blank variables and leaves optional ones undefined', () => {
    const cfg = serviceConfig().load({ JWT_SECRET: SECRET, PORT: '   ', DATA_DIR: '' });

    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATA_DIR).toBe('./.data');
    expect(cfg.TRACE).toBe(false);
    expect(cfg.LOG_LEVEL).toBe('info');
    expect(cfg.DATABASE_URL).toBeUndefined();
  });

  it('returns a frozen object', () => {
    const cfg = serviceConfig().load({ JWT_SECRET: SECRET });
    expect(Object.isFrozen(cfg)).toBe(true);
  });

  it('lists every problem at once, one line each', () => {
    let error: unknown;
    try {
      serviceConfig().load({ PORT: '12abc', DATABASE_URL: 'not a url', TRACE: 'yes', LOG_LEVEL: 'verbose' });
    } catch (e) {
      error = e;
    }

    expect(error).toBeInstanceOf(ConfigValidationError);
    const { problems, message, owner } = error as ConfigValidationError;
    expect(owner).toBe('test-service');
    expect(problems.map((p) => p.key)).toEqual(['PORT', 'DATABASE_URL', 'JWT_SECRET', 'TRACE', 'LOG_LEVEL']);
    expect(problems).toEqual([
      { key: 'PORT', problem: 'must be an integer, got "12abc"' },
      { key: 'DATABASE_URL', problem: 'must be an absolute URL (scheme://host...)' },
      { key: 'JWT_SECRET', problem: 'is required but not set' },
      { key: 'TRACE', problem: 'must be true, false, 1 or 0, got "yes"' },
      { key: 'LOG_LEVEL', problem: 'must be one of debug, info, warn, got "verbose"' },
    ]);
    const lines = message.split('\n');
    expect(lines).toHaveLength(1 + problems.length);
    expect(lines[0]).toBe('Configuration of test-service is invalid (5 problems):');
    expect(lines.slice(1)).toEqual(problems.map((p) => `  - ${p.key}: ${p.problem}`));
  });

  it.each(['12abc', '1.5', '0x10', '1e3', '', '+', '9007199254740993'])('rejects %j as an int when set', (raw) => {
    const cfg = declare({ N: { type: 'int', group: 'g', description: 'd', required: true } });
    expect(() => cfg.load({ N: raw })).toThrow(ConfigValidationError);
  });

  it('accepts signed and padded integers, and enforces min and max', () => {
    const cfg = declare({ N: { type: 'int', group: 'g', description: 'd', min: -5, max: 10 } });
    expect(cfg.load({ N: ' -5 ' }).N).toBe(-5);
    expect(cfg.load({ N: '+10' }).N).toBe(10);
    expect(() => cfg.load({ N: '11' })).toThrow('N: must be at most 10, got "11"');
    expect(() => cfg.load({ N: '-6' })).toThrow('N: must be at least -5, got "-6"');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['False', false],
    ['0', false],
  ])('reads boolean %j as %j', (raw, expected) => {
    const cfg = declare({ B: { type: 'boolean', group: 'g', description: 'd' } });
    expect(cfg.load({ B: raw }).B).toBe(expected);
  });

  it('checks minLength on strings and urls', () => {
    const cfg = declare({
      SECRET: { type: 'string', group: 'g', description: 'd', minLength: 8 },
      HOOK: { type: 'url', group: 'g', description: 'd', minLength: 20 },
    });
    expect(() => cfg.load({ SECRET: 'short', HOOK: 'http://a.b' })).toThrow(
      expect.objectContaining({
        problems: [
          { key: 'SECRET', problem: 'must be at least 8 characters, got 5' },
          { key: 'HOOK', problem: 'must be at least 20 characters, got 10' },
        ],
      }),
    );
    expect(cfg.load({ SECRET: '12345678', HOOK: 'https://hooks.example.com' })).toEqual({
      SECRET: '12345678',
      HOOK: 'https://hooks.example.com',
    });
  });

  it('never quotes a sensitive value in a problem', () => {
    const cfg = declare({
      PIN: { type: 'int', group: 'g', description: 'd', sensitive: true },
      TOKEN: { type: 'string', group: 'g', description: 'd', sensitive: true, oneOf: ['a'] },
    });
    try {
      cfg.load({ PIN: 'hunter2', TOKEN: 'topsecret' });
      throw new Error('load() should have failed');
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toContain('PIN: must be an integer');
      expect(message).toContain('TOKEN: must be one of a');
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('topsecret');
    }
  });

  it('refuses the .env.example placeholders of sensitive keys under NODE_ENV=production, and only there', () => {
    const cfg = declare({
      JWT_SECRET: { type: 'string', group: 'g', description: 'd', sensitive: true, minLength: 32 },
      DATABASE_URL: { type: 'url', group: 'g', description: 'd', sensitive: true },
      KEY: { type: 'string', group: 'g', description: 'd', sensitive: true },
      LABEL: { type: 'string', group: 'g', description: 'not sensitive' },
    });
    const placeholders = {
      JWT_SECRET: 'change-me-at-least-32-bytes-of-random-secret',
      DATABASE_URL: 'postgres://lp:change-me-postgres-password@postgres:5432/lp',
      // base64 of "change-me-change-me-change-me-32", as the webhook key ring's placeholder
      KEY: 'v2:Y2hhbmdlLW1lLWNoYW5nZS1tZS1jaGFuZ2UtbWUtMzI=',
      LABEL: 'change-me is fine here',
    };
    expect(cfg.load(placeholders).JWT_SECRET).toBe(placeholders.JWT_SECRET);
    expect(() => cfg.load({ ...placeholders, NODE_ENV: 'production' })).toThrow(ConfigValidationError);
    try {
      cfg.load({ ...placeholders, NODE_ENV: 'production' });
    } catch (e) {
      const problems = (e as ConfigValidationError).problems.map((p) => p.key);
      expect(problems).toEqual(['JWT_SECRET', 'DATABASE_URL', 'KEY']);
      expect((e as Error).message).not.toContain('change-me-postgres-password');
    }
    const real = {
      JWT_SECRET: 'q'.repeat(40),
      DATABASE_URL: 'postgres://lp:s3cr3t@postgres/lp',
      KEY: Buffer.alloc(32, 7).toString('base64'),
      NODE_ENV: 'production',
    };
    expect(cfg.load(real).KEY).toBe(real.KEY);
  });

  it('keeps string values verbatim but trims ints, booleans and urls', () => {
    const cfg = declare({
      S: { type: 'string', group: 'g', description: 'd' },
      U: { type: 'url', group: 'g', description: 'd' },
    });
    expect(cfg.load({ S: ' a b ', U: ' amqp://mq:5672 ' })).toEqual({ S: ' a b ', U: 'amqp://mq:5672' });
  });
});

describe('declareConfig declarations', () => {
  it('parses a string default to the key type', () => {
    const cfg = declare({ PORT: { type: 'int', group: 'http', description: 'd', default: '3000' } });
    expect(cfg.keys[0]!.default).toBe(3000);
    expect(cfg.load({}).PORT).toBe(3000);
  });

  it('describes each key with its owner and metadata', () => {
    const cfg = serviceConfig();
    expect(cfg.owner).toBe('test-service');
    expect(cfg.keys.find((k) => k.key === 'JWT_SECRET')).toEqual({
      key: 'JWT_SECRET',
      owner: 'test-service',
      type: 'string',
      group: 'jwt',
      description: 'HS256 secret',
      required: true,
      sensitive: true,
      minLength: 32,
    });
  });

  it.each([
    ['a lower-case key', { port: { type: 'int', group: 'g', description: 'd' } }, /not an environment variable name/],
    ['min on a string', { S: { type: 'string', group: 'g', description: 'd', min: 1 } }, /min\/max but is not an int/],
    ['oneOf on an int', { N: { type: 'int', group: 'g', description: 'd', oneOf: ['1'] } }, /oneOf but is not a string/],
    ['minLength on a boolean', { B: { type: 'boolean', group: 'g', description: 'd', minLength: 1 } }, /minLength/],
    ['required with a default', { S: { type: 'string', group: 'g', description: 'd', required: true, default: 'x' } }, /pick one/],
    ['a default of the wrong type', { B: { type: 'boolean', group: 'g', description: 'd', default: 1 } }, /defaults to a number/],
    ['a default breaking its own rule', { N: { type: 'int', group: 'g', description: 'd', max: 5, default: 6 } }, /invalid default: must be at most 5/],
  ] as const)('throws at declaration for %s', (_name, spec, error) => {
    expect(() => declare(spec)).toThrow(error);
  });
});
