/**
 * A secret box over a local AES-256-GCM key (local runtime and tests): sealed text is `local:` +
 * base64url(iv | tag | ciphertext), with the context as additional authenticated data.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox, SecretContext } from './secret-box';

const PREFIX = 'local:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class LocalSecretBox implements SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error(`The local secrets key must be 32 bytes (got ${key.length}).`);
    this.key = Buffer.from(key);
  }

  async seal(plaintext: string, context: SecretContext): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  }

  async open(sealed: string, context: SecretContext): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a locally sealed secret (expected the "local:" prefix).');
    const encoded = sealed.slice(PREFIX.length);
    const bytes = Buffer.from(encoded, 'base64url');
    if (!/^[A-Za-z0-9_-]*$/.test(encoded) || bytes.length < IV_BYTES + TAG_BYTES) {
      throw new Error('Malformed sealed secret.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('The sealed secret could not be opened (wrong key, wrong context or tampered).');
    }
  }
}

/** Canonical JSON of the context's entries sorted by name, so key order does not matter. */
function additionalData(context: SecretContext): Buffer {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries), 'utf8');
}
