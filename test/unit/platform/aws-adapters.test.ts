/**
 * The AWS adapters send exactly the commands the stack's grants allow (object reads by key, puts,
 * deletes; token signing with kms:Sign, and one kms:GetPublicKey per container to verify), checked
 * against the SDK with aws-sdk-client-mock.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { afterEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { BearerTokens } from '../../../shared/api-keys/bearer-tokens';
import { KmsTokenSigningKey } from '../../../shared/api-keys/token-signing-key';
import { S3ObjectStore } from '../../../shared/platform/objects/s3-object-store';

const s3 = mockClient(S3Client);
const kms = mockClient(KMSClient);
afterEach(() => {
  s3.reset();
  kms.reset();
});

describe('S3 object store', () => {
  const store = new S3ObjectStore(new S3Client({ region: 'eu-west-1' }), 'files-bucket');

  it('puts an object under its key with its content type', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('exports/org/job.csv', 'a,b\n', 'text/csv');
    const [call] = s3.commandCalls(PutObjectCommand);
    assert.deepEqual(
      { ...call!.args[0].input },
      { Bucket: 'files-bucket', Key: 'exports/org/job.csv', Body: 'a,b\n', ContentType: 'text/csv' },
    );
  });

  it('reads an object by key, and answers undefined for a missing one', async () => {
    // The SDK's streaming body, as far as the store uses it.
    const body = { transformToByteArray: async () => new TextEncoder().encode('hello') };
    s3.on(GetObjectCommand, { Key: 'present' }).resolves({ Body: body as never });
    s3.on(GetObjectCommand, { Key: 'absent' }).rejects(new NoSuchKey({ message: 'missing', $metadata: {} }));
    assert.equal((await store.get('present'))?.toString('utf8'), 'hello');
    assert.equal(await store.get('absent'), undefined);
    assert.deepEqual(
      s3.commandCalls(GetObjectCommand).map((call) => ({ ...call.args[0].input })),
      [
        { Bucket: 'files-bucket', Key: 'present' },
        { Bucket: 'files-bucket', Key: 'absent' },
      ],
    );
  });

  it('reads a byte range of an object with one ranged GetObject (both ends included, as HTTP counts them)', async () => {
    const body = { transformToByteArray: async () => new TextEncoder().encode('llo w') };
    s3.on(GetObjectCommand).resolves({ Body: body as never });
    assert.equal((await store.get('views/blocks', { start: 2, length: 5 }))?.toString('utf8'), 'llo w');
    assert.deepEqual(
      s3.commandCalls(GetObjectCommand).map((call) => ({ ...call.args[0].input })),
      [{ Bucket: 'files-bucket', Key: 'views/blocks', Range: 'bytes=2-6' }],
    );
  });

  it("takes S3's 403 for a key that is not there as missing: the functions may not list the bucket", async () => {
    const forbidden = (name: string) =>
      new S3ServiceException({ name, $fault: 'client', message: name, $metadata: { httpStatusCode: 403 } });
    s3.on(GetObjectCommand).rejects(forbidden('AccessDenied'));
    s3.on(HeadObjectCommand, { Key: 'absent' }).rejects(forbidden('Forbidden'));
    s3.on(HeadObjectCommand, { Key: 'present' }).resolves({ ContentLength: 12 });
    assert.equal(await store.get('absent'), undefined);
    assert.equal(await store.size('absent'), undefined);
    assert.equal(await store.size('present'), 12);
    s3.on(HeadObjectCommand, { Key: 'slow' }).rejects(
      new S3ServiceException({ name: 'SlowDown', $fault: 'server', message: 'slow down', $metadata: { httpStatusCode: 503 } }),
    );
    await assert.rejects(store.size('slow'), { name: 'SlowDown' });
  });

  it("copies an object within the bucket, or from another store's, with one CopyObject, the source key encoded as a URL path", async () => {
    s3.on(CopyObjectCommand).resolves({});
    await store.copy('uploads/org 1/a+b.csv', 'files/org-1/source.csv');
    await store.copy(
      'uploads/org 1/a+b.csv',
      'files/org-1/source.csv',
      new S3ObjectStore(new S3Client({ region: 'eu-west-1' }), 'results-bucket'),
    );
    assert.deepEqual(
      s3.commandCalls(CopyObjectCommand).map((call) => ({ ...call.args[0].input })),
      [
        { Bucket: 'files-bucket', Key: 'files/org-1/source.csv', CopySource: 'files-bucket/uploads/org%201/a%2Bb.csv' },
        { Bucket: 'files-bucket', Key: 'files/org-1/source.csv', CopySource: 'results-bucket/uploads/org%201/a%2Bb.csv' },
      ],
    );
  });

  it("signs a presigned upload's Content-Length, so that S3 refuses a PUT of any other length", async () => {
    const signing = new S3ObjectStore(
      new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example' } }),
      'files-bucket',
    );
    const url = new URL(await signing.presignedUploadUrl('uploads/org-1/source.csv', { contentType: 'text/csv', sizeBytes: 1234 }, 60));
    assert.equal(url.pathname, '/uploads/org-1/source.csv');
    assert.deepEqual(url.searchParams.get('X-Amz-SignedHeaders')?.split(';'), ['content-length', 'host']);
    assert.equal(url.searchParams.get('X-Amz-Expires'), '60');
  });

  it('deletes each key with its own DeleteObject (no listing, no batch wildcard)', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await store.delete(['a', 'b']);
    assert.deepEqual(
      s3
        .commandCalls(DeleteObjectCommand)
        .map((call) => ({ ...call.args[0].input }))
        .sort((x, y) => x.Key!.localeCompare(y.Key!)),
      [
        { Bucket: 'files-bucket', Key: 'a' },
        { Bucket: 'files-bucket', Key: 'b' },
      ],
    );
  });
});

describe('bearer-token signing key in KMS', () => {
  const ARN = 'arn:aws:kms:eu-west-1:123456789012:key/0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001';
  // KMS, played by a local P-256 key: DER signatures, the public key as DER SubjectPublicKeyInfo.
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }));
  const claims = { organizationId: 'org-1', keyId: '0123456789ab', role: 'partner' as const };
  const now = new Date('2026-03-01T12:00:00Z');
  const keyIn = (client = new KMSClient({ region: 'eu-west-1' })) => new KmsTokenSigningKey(client, ARN);

  it('signs with kms:Sign (ECDSA_SHA_256 over the JWS signing input), and the token verifies with the public key', async () => {
    kms
      .on(SignCommand)
      .callsFake((input: { Message: Uint8Array }) => ({ Signature: new Uint8Array(sign('sha256', input.Message, privateKey)) }));
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: spki, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    const tokens = new BearerTokens(keyIn());
    const { accessToken } = await tokens.issue(claims, now);
    const signingInput = accessToken.split('.').slice(0, 2).join('.');
    assert.deepEqual(
      kms.commandCalls(SignCommand).map((call) => ({ ...call.args[0].input })),
      [{ KeyId: ARN, Message: new TextEncoder().encode(signingInput), MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }],
    );
    assert.deepEqual(await tokens.verify(accessToken, now), claims);
    assert.deepEqual(
      kms.commandCalls(GetPublicKeyCommand).map((call) => ({ ...call.args[0].input })),
      [{ KeyId: ARN }],
    );
  });

  it('verifies with the public key fetched once per container, and never signs to verify', async () => {
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: spki, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    const key = keyIn();
    const [first, second] = [await key.publicKey(), await key.publicKey()];
    assert.equal(first, second);
    assert.equal(first.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.deepEqual(
      kms.commandCalls(GetPublicKeyCommand).map((call) => ({ ...call.args[0].input })),
      [{ KeyId: ARN }],
    );
    assert.equal(kms.commandCalls(SignCommand).length, 0);
  });

  it('tries again on the next request after a failed fetch of the public key', async () => {
    kms.on(GetPublicKeyCommand).rejectsOnce(new Error('throttled')).resolves({ PublicKey: spki, KeySpec: 'ECC_NIST_P256' });
    const key = keyIn();
    await assert.rejects(key.publicKey(), /throttled/);
    assert.equal((await key.publicKey()).type, 'public');
    assert.equal(kms.commandCalls(GetPublicKeyCommand).length, 2);
  });

  it('refuses a key that is not ECC_NIST_P256, and a sign answer without a signature', async () => {
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: spki, KeySpec: 'RSA_2048' });
    kms.on(SignCommand).resolves({});
    const key = keyIn();
    await assert.rejects(key.publicKey(), /must be an ECC_NIST_P256 key \(KMS answered RSA_2048\)/);
    await assert.rejects(key.sign(new Uint8Array([1])), /KMS returned no signature/);
  });
});
