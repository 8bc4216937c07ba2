import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { REFERENCE_CSV_COLUMNS } from '../../../shared/reference/inventory-file';

const cli = fileURLToPath(new URL('../../../infra/cli/reference-generate.ts', import.meta.url));

function runCli(...args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

describe('npm run reference:generate', () => {
  it('writes CSV with the documented header to stdout', () => {
    const lines = runCli('--hotels', '5', '--seed', '3').trimEnd().split('\n');
    assert.equal(lines.length, 6);
    assert.equal(lines[0], REFERENCE_CSV_COLUMNS.join(','));
    const [first] = generateReferenceHotels({ count: 1, seed: 3 });
    assert.ok(lines[1]?.startsWith(`${first?.id},`));
    assert.match(lines[1] as string, /,[A-Z]+:[A-Z]*\d+(;[A-Z]+:[A-Z]*\d+)+$/);
  });

  it('writes JSON Lines to a .jsonl file, identical to the generator', () => {
    const directory = mkdtempSync(join(tmpdir(), 'reference-generate-'));
    try {
      const out = join(directory, 'hotels.jsonl');
      runCli('--hotels', '4', '--seed', '8', '--out', out);
      const written = readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(written, [...generateReferenceHotels({ count: 4, seed: 8 })]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
