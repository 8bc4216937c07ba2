/**
 * Writes the review console's API types from the API's OpenAPI document:
 *
 *   npm run console:types
 *
 * The console's modules (shared/console/page/*.js, checked by TypeScript through JSDoc) type every
 * call of api() by its operation from shared/console/page/api-types.d.ts; infra/cli/console-api-types-file.ts
 * generates it. Run it after a change to a route or a schema the document shows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CONSOLE_API_TYPES, renderConsoleApiTypes } from './console-api-types-file';

const generated = renderConsoleApiTypes();
let current: string | undefined;
try {
  current = readFileSync(CONSOLE_API_TYPES, 'utf8');
} catch {
  current = undefined;
}
if (current === generated) {
  process.stdout.write('shared/console/page/api-types.d.ts: already up to date.\n');
} else {
  writeFileSync(CONSOLE_API_TYPES, generated);
  process.stdout.write('shared/console/page/api-types.d.ts: written.\n');
}
