/**
 * The review console's files through the local runtime: the page with its Content-Security-Policy
 * (scripts from the API's origin only, nothing inline), every module it loads, and nothing else.
 * What the page does is tested in a real browser (test/browser/console.test.ts).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import { CONSOLE_FILES_DIR } from '../../shared/console';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();

describe('GET /console and its files', () => {
  it('serves the page under a policy that allows no inline script, and names its script by path', async () => {
    const page = await api.request('GET', '/console');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.match(policy, /connect-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(page.text.includes('<base href="/">'));
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.deepEqual(
      scripts.map(([, attributes, body]) => [attributes!.trim(), body]),
      [['type="module" src="console/app.js"', '']],
    );
    assert.doesNotMatch(page.text, /\sstyle=|\son[a-z]+=/);
    // Every module named up front, fetched at once rather than import by import.
    const modules = [...readdirSync(CONSOLE_FILES_DIR)].filter((file) => file.endsWith('.js'));
    assert.deepEqual(
      [...page.text.matchAll(/<link rel="modulepreload" href="console\/([a-z-]+\.js)">/g)].map(([, file]) => file).sort(),
      modules.sort(),
    );
  });

  it('serves every module and the style sheet of the page, each module importing only its siblings', async () => {
    const files = readdirSync(CONSOLE_FILES_DIR).filter((file) => /\.(js|css)$/.test(file));
    assert.ok(files.includes('app.js') && files.includes('console.css'));
    for (const file of files) {
      const asset = await api.request('GET', `/console/${file}`);
      assert.equal(asset.status, 200, file);
      assert.match(asset.headers.get('content-type')!, file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      assert.ok(asset.headers.get('content-security-policy'));
      for (const [, imported] of asset.text.matchAll(/^import .* from '([^']+)';$/gm)) {
        assert.match(imported!, /^\.\/[a-z-]+\.js$/, `${file} imports ${imported}`);
        assert.ok(files.includes(imported!.slice(2)), `${file} imports ${imported}, which is served`);
      }
    }
  });

  it('answers 404 with {error, message} for any other name, and 405 for another method', async () => {
    for (const name of ['nope.js', 'tsconfig.json', 'api-types.d.ts', '..%2Fendpoints.ts', 'app.js.map']) {
      const missing = await api.request('GET', `/console/${name}`);
      assert.equal(missing.status, 404, name);
      assert.equal(missing.body.error, 'Not Found');
      assert.equal(typeof missing.body.message, 'string');
    }
    assert.equal((await api.request('POST', '/console')).status, 405);
  });
});
