/** A secret box over a KMS key: sealed text is `kms:` + base64 of the CiphertextBlob. */
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretBox, SecretContext } from './secret-box';

const PREFIX = 'kms:';

export class KmsSecretBox implements SecretBox {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: SecretContext): Promise<string> {
    const { CiphertextBlob } = await this.client.send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: new TextEncoder().encode(plaintext), EncryptionContext: { ...context } }),
    );
    if (!CiphertextBlob) throw new Error('KMS returned no ciphertext.');
    return PREFIX + Buffer.from(CiphertextBlob).toString('base64');
  }

  async open(sealed: string, context: SecretContext): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a KMS-sealed secret (expected the "kms:" prefix).');
    const { Plaintext } = await this.client.send(
      new DecryptCommand({
        KeyId: this.keyId,
        CiphertextBlob: new Uint8Array(Buffer.from(sealed.slice(PREFIX.length), 'base64')),
        EncryptionContext: { ...context },
      }),
    );
    if (!Plaintext) throw new Error('KMS returned no plaintext.');
    return new TextDecoder().decode(Plaintext);
  }
}
