/**
 * Every test, on jest (the browser tests too, when a Chromium is found: test/support/browser.js): TypeScript stripped by Babel and run as ES modules (with
 * NODE_OPTIONS=--experimental-vm-modules, as `npm test` sets). DynamoDB Local and s3rver start once
 * per run (test/global-setup.js); `npm run test:unit` runs the unit tests without them (jest.unit.config.js); each integration test file makes its own table and bucket on them.
 */
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/{unit,integration,infra,browser}/**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      'babel-jest',
      { presets: [['@babel/preset-typescript', { onlyRemoveTypeImports: true }]], babelrc: false, configFile: false },
    ],
  },
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // Three on two cores: the synth, npm start and the CLIs' tests mostly wait for processes of their own.
  maxWorkers: 3,
  testSequencer: '<rootDir>/test/support/slow-tests-first.js',
  // A test that needs longer says so, with why (the synth, npm start killed and started again…).
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/test/support/closing-line.js'],
};
