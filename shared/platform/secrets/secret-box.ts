/** Partner secrets (webhook signing secrets, partner API key values), stored only sealed. */

/** Context bound to a ciphertext (KMS EncryptionContext; AES-GCM additional data): opening with another context fails. */
export type SecretContext = Readonly<Record<string, string>>;

export interface SecretBox {
  seal(plaintext: string, context: SecretContext): Promise<string>;
  open(sealed: string, context: SecretContext): Promise<string>;
}
