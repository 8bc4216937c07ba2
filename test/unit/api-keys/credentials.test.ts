import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { isUsable, issueApiKey, keyIdFromPrefix, parseApiKey, secretMatches } from '../../../shared/api-keys/credentials';

const now = new Date('2026-01-01T00:00:00Z');
const issue = () => issueApiKey({ organizationId: 'org-1', name: 'k', role: 'partner', now });

describe('API keys', () => {
  it('carry the hmk_ prefix and a public prefix that names the key', () => {
    const { plaintext, record } = issue();
    assert.match(plaintext, /^hmk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    assert.ok(plaintext.startsWith(`${record.prefix}_`));
    assert.equal(keyIdFromPrefix(record.prefix), record.id);
    assert.equal(record.createdAt, now.toISOString());
  });

  it('store a SHA-256 of the secret, never the secret', () => {
    const { plaintext, record } = issue();
    const { secret } = parseApiKey(plaintext)!;
    assert.match(record.secretHash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(record).includes(secret));
  });

  it('verify only the exact secret', () => {
    const { plaintext, record } = issue();
    const { keyId, secret } = parseApiKey(plaintext)!;
    assert.equal(keyId, record.id);
    assert.ok(secretMatches(secret, record));
    assert.ok(!secretMatches(`${secret.slice(0, -1)}x`, record));
    assert.ok(!secretMatches(parseApiKey(issue().plaintext)!.secret, record));
  });

  it('parse only well-formed keys', () => {
    for (const text of ['', 'hmk_', 'hmk_123_abc', 'abc_0123456789ab_' + 'a'.repeat(43), 'hmk_0123456789AB_' + 'a'.repeat(43)]) {
      assert.equal(parseApiKey(text), undefined, text);
    }
    assert.equal(keyIdFromPrefix('hmk_nothex'), undefined);
  });

  it('are unusable once revoked', () => {
    const { record } = issue();
    assert.ok(isUsable(record));
    assert.ok(!isUsable({ ...record, revokedAt: now.toISOString() }));
    assert.ok(!isUsable(undefined));
  });

  it('are unique', () => {
    const keys = new Set(Array.from({ length: 200 }, () => issue().plaintext));
    assert.equal(keys.size, 200);
  });
});
