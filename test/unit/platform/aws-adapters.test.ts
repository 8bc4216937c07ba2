/**
 * The AWS adapters send exactly the commands the stack's grants allow (object reads by key, puts,
 * deletes; one secret read per container), checked against the SDK with aws-sdk-client-mock.
 */
import assert from 'node:assert/strict';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { signingSecretSource } from '../../../shared/api-keys/signing-secret';
import { S3ObjectStore } from '../../../shared/platform/objects/s3-object-store';

const s3 = mockClient(S3Client);
const secrets = mockClient(SecretsManagerClient);
afterEach(() => {
  s3.reset();
  secrets.reset();
});

describe('S3 object store', () => {
  const store = new S3ObjectStore(new S3Client({ region: 'eu-west-1' }), 'files-bucket');

  it('puts an object under its key with its content type', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store.put('exports/org/job.csv', 'a,b\n', 'text/csv');
    const [call] = s3.commandCalls(PutObjectCommand);
    assert.deepEqual({ ...call!.args[0].input }, { Bucket: 'files-bucket', Key: 'exports/org/job.csv', Body: 'a,b\n', ContentType: 'text/csv' });
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
      [{ Bucket: 'files-bucket', Key: 'present' }, { Bucket: 'files-bucket', Key: 'absent' }],
    );
  });

  it('deletes each key with its own DeleteObject (no listing, no batch wildcard)', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await store.delete(['a', 'b']);
    assert.deepEqual(
      s3.commandCalls(DeleteObjectCommand).map((call) => ({ ...call.args[0].input })).sort((x, y) => x.Key!.localeCompare(y.Key!)),
      [{ Bucket: 'files-bucket', Key: 'a' }, { Bucket: 'files-bucket', Key: 'b' }],
    );
  });
});

describe('bearer-token signing secret from Secrets Manager', () => {
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:TokenSigningSecret';

  it('reads the secret once per container', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'signing-key' });
    const source = signingSecretSource({ region: 'eu-west-1', tokenSigningSecretArn: ARN });
    assert.equal(new TextDecoder().decode(await source()), 'signing-key');
    await source();
    assert.deepEqual(secrets.commandCalls(GetSecretValueCommand).map((call) => ({ ...call.args[0].input })), [{ SecretId: ARN }]);
  });

  it('tries again on the next request after a failed read', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'signing-key' });
    const source = signingSecretSource({ region: 'eu-west-1', tokenSigningSecretArn: ARN });
    await assert.rejects(source(), /throttled/);
    assert.equal(new TextDecoder().decode(await source()), 'signing-key');
    assert.equal(secrets.commandCalls(GetSecretValueCommand).length, 2);
  });
});
