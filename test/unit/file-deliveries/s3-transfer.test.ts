/**
 * The S3 delivery adapter sends exactly the commands the partner's policies allow: STS AssumeRole
 * with the destination's external id, then one PutObject under the prefix with the assumed
 * credentials (DeleteObject for the connection test), checked against the SDK with
 * aws-sdk-client-mock; and STS's and S3's refusals become reason codes.
 */
import assert from 'node:assert/strict';
import { DeleteObjectCommand, NoSuchBucket, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient, STSServiceException } from '@aws-sdk/client-sts';
import { afterEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import type { DeliveryDestination } from '../../../shared/file-deliveries/destination';
import { S3Transfer, stsAssumeRole } from '../../../shared/file-deliveries/s3-transfer';
import { TransferFailure } from '../../../shared/file-deliveries/transfer';

const sts = mockClient(STSClient);
const s3 = mockClient(S3Client);
afterEach(() => {
  sts.reset();
  s3.reset();
});

const destination: DeliveryDestination = {
  id: '3f9c2a7e-5b1d-4e8a-9c6f-2d4b6e8a0c1f',
  organizationId: 'org-1',
  name: 'Partner bucket',
  type: 'S3',
  status: 'ACTIVE',
  s3: {
    bucket: 'partner-exports',
    region: 'eu-west-1',
    prefix: 'mapping/',
    roleArn: 'arn:aws:iam::123456789012:role/delivery',
    externalId: 'external-id-1',
  },
  failedInARow: 0,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  revision: 1,
};
const transfer = new S3Transfer({ policy: { allowLoopback: false }, assumeRole: stsAssumeRole(new STSClient({ region: 'eu-west-1' })) });
const credentials = {
  AccessKeyId: 'ASIA-TEMP',
  SecretAccessKey: 'temporary-secret',
  SessionToken: 'session-token',
  Expiration: new Date(),
};

describe('S3 delivery', () => {
  it('assumes the partner role with its external id, then puts the file under the prefix with those credentials', async () => {
    sts.on(AssumeRoleCommand).resolves({ Credentials: credentials });
    s3.on(PutObjectCommand).resolves({});
    const bytes = Buffer.from('partnerHotelId,status\nH-1,MATCHED\n');
    await transfer.put(destination, {}, { name: 'mapping-job-1.csv', bytes, contentType: 'text/csv' });
    assert.deepEqual(
      sts.commandCalls(AssumeRoleCommand).map((call) => ({ ...call.args[0].input })),
      [
        {
          RoleArn: 'arn:aws:iam::123456789012:role/delivery',
          RoleSessionName: `hotel-mapping-${destination.id}`,
          ExternalId: 'external-id-1',
          DurationSeconds: 900,
        },
      ],
    );
    const [put] = s3.commandCalls(PutObjectCommand);
    assert.deepEqual(
      { ...put!.args[0].input },
      { Bucket: 'partner-exports', Key: 'mapping/mapping-job-1.csv', Body: bytes, ContentType: 'text/csv' },
    );
    const used = await put!.thisValue.config.credentials();
    assert.deepEqual([used.accessKeyId, used.secretAccessKey, used.sessionToken], ['ASIA-TEMP', 'temporary-secret', 'session-token']);
  });

  it('removes the connection test file by key', async () => {
    sts.on(AssumeRoleCommand).resolves({ Credentials: credentials });
    s3.on(DeleteObjectCommand).resolves({});
    await transfer.remove(destination, {}, 'hotel-mapping-connection-test-1.txt');
    assert.deepEqual(
      s3.commandCalls(DeleteObjectCommand).map((call) => ({ ...call.args[0].input })),
      [{ Bucket: 'partner-exports', Key: 'mapping/hotel-mapping-connection-test-1.txt' }],
    );
  });

  it('answers a role that does not trust us as AUTH_REFUSED, and a missing bucket as NOT_FOUND', async () => {
    sts
      .on(AssumeRoleCommand)
      .rejects(
        new STSServiceException({ name: 'AccessDenied', $fault: 'client', $metadata: { httpStatusCode: 403 }, message: 'not authorized' }),
      );
    await assert.rejects(
      transfer.put(destination, {}, { name: 'f.csv', bytes: Buffer.from('x'), contentType: 'text/csv' }),
      (error: TransferFailure) => {
        assert.equal(error.reasonCode, 'AUTH_REFUSED');
        assert.match(error.message, /trust policy/);
        return true;
      },
    );
    assert.equal(s3.commandCalls(PutObjectCommand).length, 0);

    sts.on(AssumeRoleCommand).resolves({ Credentials: credentials });
    s3.on(PutObjectCommand).rejects(new NoSuchBucket({ message: 'no bucket', $metadata: { httpStatusCode: 404 } }));
    await assert.rejects(
      transfer.put(destination, {}, { name: 'f.csv', bytes: Buffer.from('x'), contentType: 'text/csv' }),
      (error: TransferFailure) => error.reasonCode === 'NOT_FOUND',
    );
  });
});
