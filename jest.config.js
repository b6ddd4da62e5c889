/**
 * One Jest run over the whole workspace. Unit specs (*.spec.ts) sit beside the code;
 * integration specs (*.int-spec.ts) need PostgreSQL, RabbitMQ or Redis: the global setup
 * probes them and, under CI=true, fails when one is missing instead of skipping.
 */
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: { '^.+\\.(t|j|mj|cj)s$': '<rootDir>/tools/jest/esm-interop-transformer.js' },
  // Nest 12 and a few of its companions are ESM-only: they are compiled to CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@electric-sql|jose|uuid|file-type|strtok3|token-types|uint8array-extras|@tokenizer)/)'],
  moduleNameMapper: pathsToModuleNameMapper(),
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.js',
  reporters: ['default', '<rootDir>/tools/jest/server-suites-reporter.js'],
  testTimeout: 30000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
