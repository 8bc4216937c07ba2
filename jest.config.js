/**
 * Every test, on jest: TypeScript compiled by SWC as ES modules (run with
 * NODE_OPTIONS=--experimental-vm-modules, as `npm test` does). DynamoDB Local and s3rver start once
 * per run (test/global-setup.ts); each integration test file makes its own table and bucket on them.
 */
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/{unit,integration,infra}/**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } },
        module: { type: 'es6' },
      }],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/support/closing-line.js'],
};
