/**
 * Jest over the workspace, or over one Nx project's specs of one kind (the `test` and `test-int`
 * targets set JEST_PROJECT_ROOT and JEST_KIND). Unit specs (*.spec.ts) sit beside the code;
 * integration specs (*.int-spec.ts) and end-to-end specs (*.e2e.spec.ts) need PostgreSQL, RabbitMQ
 * or Redis, or start processes: the global setup probes the servers and, under CI=true, fails when
 * one is missing instead of skipping.
 */
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

const KINDS = {
  unit: { testMatch: ['**/*.spec.ts'], testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.spec\\.ts$'] },
  int: { testMatch: ['**/*.int-spec.ts', '**/*.e2e.spec.ts'], testPathIgnorePatterns: ['/node_modules/'] },
  all: { testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'], testPathIgnorePatterns: ['/node_modules/'] },
};
const kind = KINDS[process.env.JEST_KIND || 'all'];
if (!kind) throw new Error(`JEST_KIND must be unit, int or all, got ${process.env.JEST_KIND}`);
const projectRoot = process.env.JEST_PROJECT_ROOT;

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: projectRoot ? [`<rootDir>/${projectRoot}`] : ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/bench'],
  ...kind,
  transform: { '^.+\\.(t|j|mj|cj)s$': '<rootDir>/tools/jest/esm-interop-transformer.js' },
  // Nest 12 and a few of its companions are ESM-only: they are compiled to CommonJS for Jest (and
  // oidc-provider, the issuer the console's single sign-on spec runs in its own process).
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@electric-sql|jose|uuid|file-type|strtok3|token-types|uint8array-extras|@tokenizer|oidc-provider)/)'],
  moduleNameMapper: pathsToModuleNameMapper(),
  // Not under the temporary directory: .ci/run gives each run its own TMPDIR and fails on anything left in it.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  // The slowest files first (committed timings for a clean clone; see tools/jest/spec-sequencer.js).
  testSequencer: '<rootDir>/tools/jest/spec-sequencer.js',
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.js',
  reporters: ['default', '<rootDir>/tools/jest/server-suites-reporter.js'],
  testTimeout: 30000,
  // JEST_MAX_WORKERS: the end-to-end run's specs mostly wait (on processes, outages, leases), so
  // `npm test` gives that run more workers than the 2 cores (see package.json's test:e2e).
  maxWorkers: process.env.JEST_MAX_WORKERS ? Number(process.env.JEST_MAX_WORKERS) : process.env.CI ? 2 : '50%',
};
