/**
 * The browser tests alone (`npm run test:browser`): a real Chromium through Playwright against the
 * local API. Without a browser they fail, where `npm test` skips them with one line.
 */
import base from './jest.config.js';

export default { ...base, testMatch: ['<rootDir>/test/browser/**/*.test.ts'] };
