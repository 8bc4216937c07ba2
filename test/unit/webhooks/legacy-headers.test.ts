import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { CreateLegacyWebhookRequest } from '../../../shared/webhooks/schemas';

const withHeader = (name: string) =>
  v.safeParse(CreateLegacyWebhookRequest, { webhookUrl: 'https://hooks.example.com/x', additionalHeaders: { [name]: 'v' } });

describe('legacy webhook additionalHeaders', () => {
  it('refuses every cookie header, in any case, as it refuses Cookie: a credential goes in apiKeyName/apiKeyValue', () => {
    for (const name of ['Cookie', 'cookie', 'Cookie2', 'Set-Cookie', 'set-cookie', 'Set-Cookie2', 'X-Session-Cookie']) {
      const result = withHeader(name);
      assert.equal(result.success, false, name);
      assert.match(result.issues[0].message, /looks like a credential/, name);
    }
  });

  it('takes ordinary headers', () => {
    for (const name of ['X-Env', 'Accept-Language', 'X-Correlation']) assert.equal(withHeader(name).success, true, name);
  });
});
