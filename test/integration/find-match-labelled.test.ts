/**
 * Find-match answers a real labelled set's rows as the CLI and a job do (status, reference hotel,
 * score): downtown Pittsburgh, dense enough that rows contest reference hotels (see
 * test/support/labelled-subset/README.md). `npm run bench:find` compares the four whole sets.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { compareWithJobAndCli } from '../support/find-match-equality';
import { startTestApi } from '../support/test-api';

const SUBSET = fileURLToPath(new URL('../support/labelled-subset', import.meta.url));
const api = await startTestApi();

describe('find-match on labelled real data', () => {
  it('answers every row as the CLI and a job answer it, contested rows included', async () => {
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const equality = await compareWithJobAndCli(
      { ...api, caller },
      { reference: join(SUBSET, 'reference.csv'), partner: join(SUBSET, 'partner.csv') },
      mkdtempSync(join(tmpdir(), 'find-match-labelled-')),
    );
    assert.equal(equality.rows, 225);
    assert.deepEqual(equality.differences, []);
    assert.ok(equality.contestedRequests > 0, 'the subset has rows that contest a reference hotel');
  });
});
