/**
 * Delivering to S3: a partner's bucket through the role it created (STS AssumeRole with the
 * destination's external id, for 15 minutes), or an S3-compatible endpoint with the partner's access
 * key, connected to only through the destination guard. A PutObject is whole or absent: no
 * reader ever sees part of a file.
 */
import http from 'node:http';
import https from 'node:https';
import { DeleteObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, type AssumeRoleCommandInput, type STSClient } from '@aws-sdk/client-sts';
import { type DestinationPolicy, guardedLookup, urlProblem } from '../platform/network/destinations';
import type { DeliveryDestination } from './destination';
import { connectionFailure, TransferFailure, type DeliveredFile, type FileTransfer, type OpenedCredentials } from './transfer';

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** STS AssumeRole; refused trust is thrown as STS's own error (AccessDenied). */
export type AssumeRole = (input: AssumeRoleCommandInput) => Promise<TemporaryCredentials>;

/** AssumeRole through STS. */
export function stsAssumeRole(sts: STSClient): AssumeRole {
  return async (input) => {
    const { Credentials } = await sts.send(new AssumeRoleCommand(input));
    if (!Credentials?.AccessKeyId || !Credentials.SecretAccessKey || !Credentials.SessionToken)
      throw new Error('STS answered no credentials.');
    return { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken };
  };
}

export interface S3TransferOptions {
  policy: DestinationPolicy;
  assumeRole: AssumeRole;
  /** Where S3 destinations' buckets are reached instead of AWS (the local runtime's s3rver); AWS when absent. */
  s3Endpoint?: string;
  timeoutMs?: number;
}

export class S3Transfer implements FileTransfer {
  constructor(private readonly options: S3TransferOptions) {}

  async put(destination: DeliveryDestination, credentials: OpenedCredentials, file: DeliveredFile): Promise<void> {
    const { client, bucket, prefix, where } = await this.clientFor(destination, credentials);
    await sent(where, () =>
      client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}${file.name}`, Body: file.bytes, ContentType: file.contentType })),
    );
  }

  async remove(destination: DeliveryDestination, credentials: OpenedCredentials, name: string): Promise<void> {
    const { client, bucket, prefix, where } = await this.clientFor(destination, credentials);
    await sent(where, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${prefix}${name}` })));
  }

  private async clientFor(destination: DeliveryDestination, credentials: OpenedCredentials) {
    const timeouts = { connectionTimeout: this.options.timeoutMs ?? 10_000, requestTimeout: 5 * 60_000 };
    if (destination.s3) {
      const target = destination.s3;
      const where = `The bucket ${target.bucket}`;
      let assumed: TemporaryCredentials;
      try {
        assumed = await this.options.assumeRole({
          RoleArn: target.roleArn,
          RoleSessionName: `hotel-mapping-${destination.id}`.slice(0, 64),
          ExternalId: target.externalId,
          DurationSeconds: 900,
        });
      } catch (error) {
        throw roleFailure(error, target.roleArn);
      }
      const config: S3ClientConfig = {
        region: target.region,
        credentials: assumed,
        requestHandler: timeouts,
        ...(this.options.s3Endpoint && { endpoint: this.options.s3Endpoint, forcePathStyle: true }),
      };
      return { client: new S3Client(config), bucket: target.bucket, prefix: target.prefix, where };
    }
    const target = destination.s3Compatible!;
    const where = `The bucket ${target.bucket} at ${target.endpoint}`;
    const problem = urlProblem(target.endpoint, this.options.policy);
    if (problem) throw new TransferFailure('DESTINATION_NOT_ALLOWED', `Not connected: ${problem}.`);
    const lookup = guardedLookup(this.options.policy);
    const client = new S3Client({
      region: target.region,
      endpoint: target.endpoint,
      forcePathStyle: target.forcePathStyle,
      credentials: { accessKeyId: target.accessKeyId, secretAccessKey: credentials.secretAccessKey ?? '' },
      // Every connection goes through the guarded lookup, so a name that rebinds to a private address is refused.
      requestHandler: { ...timeouts, httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) },
    });
    return { client, bucket: target.bucket, prefix: target.prefix, where };
  }
}

async function sent(where: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    throw s3Failure(error, where);
  }
}

function s3Failure(error: unknown, where: string): TransferFailure {
  const failure = error as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
  switch (failure.name) {
    case 'NoSuchBucket':
      return new TransferFailure('NOT_FOUND', `${where} does not exist.`);
    case 'AccessDenied':
    case 'AllAccessDisabled':
      return new TransferFailure('ACCESS_DENIED', `${where} refused the write (access denied): check the permission policy.`);
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'ExpiredToken':
    case 'InvalidToken':
      return new TransferFailure('AUTH_REFUSED', `${where} refused the credentials (${failure.name}).`);
    case 'TimeoutError':
    case 'RequestTimeout':
      return new TransferFailure('TIMEOUT', `${where} did not answer in time.`);
    case 'QuotaExceeded':
    case 'EntityTooLarge':
      return new TransferFailure('WRITE_FAILED', `${where} refused the file (${failure.name}).`);
  }
  const connection = failure.code ? connectionFailure(failure, where) : undefined;
  if (connection) return connection;
  const status = failure.$metadata?.httpStatusCode;
  if (status === 403) return new TransferFailure('ACCESS_DENIED', `${where} refused the write (403).`);
  if (status === 404) return new TransferFailure('NOT_FOUND', `${where} does not exist (404).`);
  if (status !== undefined) return new TransferFailure('WRITE_FAILED', `${where} answered ${status} (${failure.name}).`);
  return new TransferFailure('CONNECTION_FAILED', `${where}: ${failure.message}.`);
}

function roleFailure(error: unknown, roleArn: string): TransferFailure {
  const name = (error as Error).name;
  if (name === 'AccessDenied' || name === 'AccessDeniedException') {
    return new TransferFailure(
      'AUTH_REFUSED',
      `The role ${roleArn} cannot be assumed: check its trust policy (our account and this destination's external id).`,
    );
  }
  return new TransferFailure('CONNECTION_FAILED', `The role ${roleArn} could not be assumed (${name}).`);
}
