/**
 * The unit tests alone (`npm run test:unit`): none of them needs DynamoDB Local or s3rver, so none
 * is started (a test that reached for them would fail at once, saying so: test/support/test-api.ts).
 */
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup-unit.js',
  globalTeardown: undefined,
};
