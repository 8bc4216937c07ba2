/**
 * The partner's guide as a partner uses it: every shell block that calls the API, in order,
 * pasted into one bash against `npm start`, from a folder where `.local/` is the API's state and `infra/` the
 * repository's (the guide's relative paths). Each curl fails the run on an HTTP error.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { npmStart, ROOT, stopGracefully } from '../support/npm-start';

const GUIDE = join(ROOT, 'docs', 'guides', 'partner.md');

/** The guide's shell blocks (```sh) that call the API with curl, in order, their list indentation taken off. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)]
    .map(([, indent, body]) =>
      body!
        .split('\n')
        .map((line) => line.slice(indent!.length))
        .join('\n'),
    )
    .filter((block) => /\bcurl /.test(block));
}

/** Runs a script in bash; its exit status and everything it printed. */
function bash(script: string, cwd: string, timeoutMs: number): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-guide-state-'));
const partnerDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-guide-'));
afterAll(() => [stateDir, partnerDir].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("the partner's guide", () => {
  it('has its walk-through, the token exchange, the presigned upload and a webhook receiver as shell blocks', () => {
    const blocks = shellBlocks(readFileSync(GUIDE, 'utf8'));
    const curls = blocks.join('\n').match(/\bcurl /g) ?? [];
    assert.ok(blocks.length >= 8 && curls.length >= 30, `${blocks.length} blocks, ${curls.length} curls`);
    for (const path of [
      '/auth/token',
      '/partner-inventories/uploads',
      '/webhook-subscriptions',
      '/mapping-book/changes',
      '/mapping/match',
    ]) {
      assert.ok(
        blocks.some((block) => block.includes(path)),
        `a block calls ${path}`,
      );
    }
  });

  it('runs every curl of the guide against npm start, each answered without an HTTP error', async () => {
    symlinkSync(stateDir, join(partnerDir, '.local'));
    symlinkSync(join(ROOT, 'infra'), join(partnerDir, 'infra'));
    const started = await npmStart(stateDir, ['--fresh'], { ALLOW_LOOPBACK_DESTINATIONS: 'true' });
    const script = [
      'set -euo pipefail',
      // A partner reads the answers; the run stops at the first that is an HTTP error, and says which.
      'curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }',
      'set -x',
      ...shellBlocks(readFileSync(GUIDE, 'utf8')),
    ].join('\n');
    const { status, output } = await bash(script, partnerDir, 240_000);
    assert.equal(status, 0, output.slice(-4_000));
    // What the walk-through says it shows.
    assert.match(output, /"status":"COMPLETED"/);
    assert.match(output, /"checkoutUrl":/);
    assert.match(output, /"access_token":/);
    assert.equal(await stopGracefully(started), 0);
    // npm start, its review demo, three jobs of the guide and a webhook's test event: minutes under a loaded CI.
  }, 360_000);
});
