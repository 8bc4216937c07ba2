/**
 * The secret box seals partner secrets bound to a context: locally with AES-256-GCM (tampering, a
 * wrong key or another context fail), in AWS with KMS (checked against the SDK with aws-sdk-client-mock).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { afterEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import type { AppConfig } from '../../../shared/platform/config';
import { createRuntime } from '../../../shared/platform/runtime';
import { KmsSecretBox } from '../../../shared/platform/secrets/kms-secret-box';
import { LocalSecretBox } from '../../../shared/platform/secrets/local-secret-box';
import type { SecretContext } from '../../../shared/platform/secrets/secret-box';
import { secretBoxOf } from '../../../shared/platform/secrets/services';

const kms = mockClient(KMSClient);
afterEach(() => {
  kms.reset();
});

const context = { organizationId: 'org-1', purpose: 'webhook-signing' };

/** Flips one bit of the decoded payload at `index` (0-11 iv, 12-27 tag, then ciphertext). */
function tampered(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed.slice('local:'.length), 'base64url');
  bytes[index] = bytes[index]! ^ 0x01;
  return 'local:' + bytes.toString('base64url');
}

describe('local secret box', () => {
  const box = new LocalSecretBox(randomBytes(32));

  it('opens what it sealed, non-ASCII text included', async () => {
    for (const plaintext of ['whsec_abc123', 'clé секрет 秘密 🔑', '']) {
      const sealed = await box.seal(plaintext, context);
      assert.match(sealed, /^local:[A-Za-z0-9_-]+$/);
      assert.ok(!sealed.includes(plaintext) || plaintext === '');
      assert.equal(await box.open(sealed, context), plaintext);
    }
  });

  it('seals one plaintext differently each time', async () => {
    const [a, b] = [await box.seal('same', context), await box.seal('same', context)];
    assert.notEqual(a, b);
    assert.equal(await box.open(a, context), 'same');
    assert.equal(await box.open(b, context), 'same');
  });

  it('does not care about the order of the context keys', async () => {
    const sealed = await box.seal('secret', { a: '1', b: '2' });
    assert.equal(await box.open(sealed, { b: '2', a: '1' }), 'secret');
  });

  it('refuses another context', async () => {
    const sealed = await box.seal('secret', context);
    const others: SecretContext[] = [{ ...context, organizationId: 'org-2' }, { organizationId: 'org-1' }, {}, { ...context, extra: 'x' }];
    for (const other of others) {
      await assert.rejects(box.open(sealed, other), /could not be opened/);
    }
  });

  it('refuses tampered text, without leaking the plaintext', async () => {
    const sealed = await box.seal('top-secret-value', context);
    for (const index of [0, 12, 28, 30]) {
      await assert.rejects(box.open(tampered(sealed, index), context), (error: Error) => {
        assert.match(error.message, /could not be opened/);
        assert.ok(!error.message.includes('top-secret-value'));
        return true;
      });
    }
    await assert.rejects(box.open(sealed.slice(0, 20), context), /Malformed/);
    await assert.rejects(box.open(sealed.replace('local:', 'kms:'), context), /"local:" prefix/);
  });

  it('refuses text sealed with another key', async () => {
    const sealed = await new LocalSecretBox(randomBytes(32)).seal('secret', context);
    await assert.rejects(box.open(sealed, context), /could not be opened/);
  });

  it('refuses a key that is not 32 bytes', () => {
    for (const length of [0, 16, 31, 33, 64]) {
      assert.throws(() => new LocalSecretBox(randomBytes(length)), /32 bytes/);
    }
  });
});

describe('KMS secret box', () => {
  const keyId = 'arn:aws:kms:eu-west-1:123456789012:key/partner-secrets';
  const box = new KmsSecretBox(new KMSClient({ region: 'eu-west-1' }), keyId);
  const blob = Uint8Array.from([1, 2, 3, 250, 251, 252]);

  it('encrypts and decrypts under the key with the context, and round-trips', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: blob, KeyId: keyId });
    kms.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode('clé 🔑'), KeyId: keyId });

    const sealed = await box.seal('clé 🔑', context);
    assert.equal(sealed, 'kms:' + Buffer.from(blob).toString('base64'));
    const [encrypt] = kms.commandCalls(EncryptCommand);
    const encryptInput = encrypt!.args[0].input;
    assert.deepEqual(
      { ...encryptInput, Plaintext: Buffer.from(encryptInput.Plaintext!) },
      { KeyId: keyId, Plaintext: Buffer.from('clé 🔑', 'utf8'), EncryptionContext: context },
    );

    assert.equal(await box.open(sealed, context), 'clé 🔑');
    const [decrypt] = kms.commandCalls(DecryptCommand);
    const decryptInput = decrypt!.args[0].input;
    assert.deepEqual(
      { ...decryptInput, CiphertextBlob: Buffer.from(decryptInput.CiphertextBlob!) },
      { KeyId: keyId, CiphertextBlob: Buffer.from(blob), EncryptionContext: context },
    );
  });

  it('refuses text without the kms: prefix, without calling KMS', async () => {
    await assert.rejects(box.open('local:AAAA', context), /"kms:" prefix/);
    await assert.rejects(box.open(Buffer.from(blob).toString('base64'), context), /"kms:" prefix/);
    assert.equal(kms.commandCalls(DecryptCommand).length, 0);
  });
});

describe('secretBoxOf', () => {
  const base: AppConfig = { stage: 'test', region: 'eu-west-1' };

  it('uses KMS when a key ARN is set', () => {
    const runtime = createRuntime({ ...base, secretsKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/k' });
    assert.ok(secretBoxOf(runtime) instanceof KmsSecretBox);
    assert.equal(secretBoxOf(runtime), secretBoxOf(runtime));
  });

  it('uses the local key when one is set', async () => {
    const runtime = createRuntime({ ...base, localSecretsKey: randomBytes(32).toString('base64') });
    const box = secretBoxOf(runtime);
    assert.ok(box instanceof LocalSecretBox);
    assert.equal(await box.open(await box.seal('secret', context), context), 'secret');
  });

  it('names SECRETS_KEY_ARN when neither is set', () => {
    assert.throws(() => secretBoxOf(createRuntime(base)), /SECRETS_KEY_ARN/);
  });
});
