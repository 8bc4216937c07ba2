/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, or Debian's package. Playwright's own
 * browser downloads are not reachable from these machines, so the system's browser is used.
 */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable'];
const HOW = '(apt-get install chromium, or set CHROMIUM_PATH)';

/** Sets process.env.CHROMIUM_PATH for the test workers, or says in one line why browser tests will not run. */
export function findBrowser({ required }) {
  const found = [process.env.CHROMIUM_PATH, ...CANDIDATES].find((path) => path && existsSync(path));
  if (found) {
    process.env.CHROMIUM_PATH = found;
    return;
  }
  delete process.env.CHROMIUM_PATH;
  if (!required) {
    process.stdout.write(`\nBrowser tests skipped: no Chromium found ${HOW}.\n`);
    return;
  }
  process.stderr.write(`\nThe browser tests need a Chromium, and none was found ${HOW}.\n`);
  process.exit(1);
}
