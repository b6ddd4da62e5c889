/**
 * One Jest run over the whole workspace. Unit specs (*.spec.ts) sit beside the code;
 * integration specs (*.int-spec.ts) need PostgreSQL, RabbitMQ or Redis: the global setup
 * probes them and, under CI=true, fails when one is missing instead of skipping.
 */
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: pathsToModuleNameMapper(),
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  reporters: ['default', '<rootDir>/tools/jest/server-suites-reporter.js'],
  testTimeout: 30000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
