/**
 * The review console's API types (shared/console/page/api-types.d.ts) are what the API's OpenAPI
 * document gives now: the file matches what infra/cli/console-api-types-file.ts generates from the
 * route table, in-process and without a server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import { CONSOLE_API_TYPES, renderConsoleApiTypes, servedOpenApiDocument } from '../../../infra/cli/console-api-types-file';

describe("the review console's API types", () => {
  it('are what the OpenAPI document gives now', () => {
    assert.equal(
      readFileSync(CONSOLE_API_TYPES, 'utf8'),
      renderConsoleApiTypes(),
      'shared/console/page/api-types.d.ts is stale: run `npm run console:types`',
    );
  });

  it('hold every path of the document, under /api/v1 as the console calls them', () => {
    const types = readFileSync(CONSOLE_API_TYPES, 'utf8');
    const paths = Object.keys(servedOpenApiDocument().paths as Record<string, unknown>);
    assert.ok(paths.length > 0);
    for (const path of paths) {
      assert.match(path, /^\/api\/v1\//);
      assert.ok(types.includes(`    ${JSON.stringify(path)}: {`), `${path} is in the types`);
    }
  });
});
