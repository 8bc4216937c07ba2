import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { issueApiKey, parseApiKey } from '../../../shared/api-keys/credentials';
import { apiKeyView } from '../../../shared/api-keys/views';

const now = new Date('2026-03-01T12:00:00Z');

describe('what partners see of an API key', () => {
  it('is its id, name, public prefix, role and dates', () => {
    const { record } = issueApiKey({ organizationId: 'org-1', name: 'Production', role: 'admin', now });
    assert.deepEqual(apiKeyView(record), {
      id: record.id,
      name: 'Production',
      prefix: record.prefix,
      role: 'admin',
      createdAt: '2026-03-01T12:00:00.000Z',
      revokedAt: undefined,
    });
    const revoked = { ...record, revokedAt: '2026-03-02T08:00:00.000Z' };
    assert.equal(apiKeyView(revoked).revokedAt, '2026-03-02T08:00:00.000Z');
  });

  it('never shows the hash or the secret, nor the organization', () => {
    const { record, plaintext } = issueApiKey({ organizationId: 'org-1', name: 'k', role: 'partner', now });
    const shown = JSON.stringify(apiKeyView(record));
    assert.ok(!('secretHash' in apiKeyView(record)));
    assert.ok(!shown.includes(record.secretHash));
    assert.ok(!shown.includes(parseApiKey(plaintext)!.secret));
    assert.ok(!shown.includes(plaintext));
    assert.ok(!shown.includes('org-1'));
  });
});
