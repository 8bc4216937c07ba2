/**
 * The bearer-token key pair: an asymmetric KMS key in AWS, whose private half never leaves KMS
 * (only the token endpoint's role may sign with it; the others may read its public half), or a
 * local P-256 key for the local runtime and tests.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { PLATFORM_SETTINGS, type AppConfig } from '../platform/config';
import { traced } from '../platform/tracing';
import type { TokenSigningKey } from './bearer-tokens';
import { joseSignatureFromDer } from './ecdsa-signature';

export class KmsTokenSigningKey implements TokenSigningKey {
  private publicHalf: Promise<KeyObject> | undefined;

  constructor(
    private readonly client: KMSClient,
    private readonly keyArn: string,
  ) {}

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    const { Signature } = await this.client.send(
      new SignCommand({ KeyId: this.keyArn, Message: signingInput, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    if (!Signature) throw new Error('KMS returned no signature.');
    return joseSignatureFromDer(Signature);
  }

  /** Fetched once per container. */
  publicKey(): Promise<KeyObject> {
    return (this.publicHalf ??= this.fetchPublicKey().catch((error: unknown) => {
      this.publicHalf = undefined; // retry on the next request rather than failing the container forever
      throw error;
    }));
  }

  private async fetchPublicKey(): Promise<KeyObject> {
    const { PublicKey, KeySpec } = await this.client.send(new GetPublicKeyCommand({ KeyId: this.keyArn }));
    if (!PublicKey || KeySpec !== 'ECC_NIST_P256')
      throw new Error(`The token signing key must be an ECC_NIST_P256 key (KMS answered ${KeySpec ?? 'no key'}).`);
    return createPublicKey({ key: Buffer.from(PublicKey), format: 'der', type: 'spki' });
  }
}

export class LocalTokenSigningKey implements TokenSigningKey {
  private readonly privateKey: KeyObject;
  private readonly publicHalf: KeyObject;

  /** `pem`: a P-256 private key, PKCS#8. */
  constructor(pem: string) {
    this.privateKey = createPrivateKey(pem);
    if (this.privateKey.asymmetricKeyType !== 'ec' || this.privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('The local token signing key must be a P-256 private key.');
    }
    this.publicHalf = createPublicKey(this.privateKey);
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    return sign('sha256', signingInput, { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
  }

  async publicKey(): Promise<KeyObject> {
    return this.publicHalf;
  }
}

/** The configured key: the local one when given (local runtime, tests), else the KMS key; neither, it fails on use, naming the setting. */
export function tokenSigningKeyFrom(config: Pick<AppConfig, 'tokenSigningKeyArn' | 'localTokenSigningKey' | 'region'>): TokenSigningKey {
  const { tokenSigningKeyArn, localTokenSigningKey, region } = config;
  if (!tokenSigningKeyArn && localTokenSigningKey) return new LocalTokenSigningKey(localTokenSigningKey);
  if (tokenSigningKeyArn) return new KmsTokenSigningKey(traced(new KMSClient({ region })), tokenSigningKeyArn);
  const missing = () =>
    Promise.reject(new Error(`No bearer-token signing key is configured (${PLATFORM_SETTINGS.variables.tokenSigningKeyArn}).`));
  return { sign: missing, publicKey: missing };
}
