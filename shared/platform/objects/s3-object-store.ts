import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AppConfig } from '../config';
import type { ByteRange, ObjectStore } from './object-store';
import { traced } from '../tracing';

export function createS3Client(config: Pick<AppConfig, 'region' | 's3Endpoint'>): S3Client {
  return traced(
    new S3Client({
      region: config.region,
      ...(config.s3Endpoint && {
        endpoint: config.s3Endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        // s3rver predates the SDK's default CRC checksums.
        requestChecksumCalculation: 'WHEN_REQUIRED' as const,
        responseChecksumValidation: 'WHEN_REQUIRED' as const,
      }),
    }),
  );
}

/** The tag the bucket's lifecycle rule expires objects by (infra/stack.ts). */
export const EXPIRE_TAG = { key: 'expire', value: '1d' } as const;

export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
  ) {}

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string, range?: ByteRange): Promise<Buffer | undefined> {
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range && { Range: `bytes=${range.start}-${range.start + range.length - 1}` }),
        }),
      );
      if (!Body) return undefined;
      // A view of the bytes, not a copy: an index file is hundreds of megabytes.
      const bytes = await Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const { ContentLength } = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async copy(sourceKey: string, targetKey: string, from: Pick<ObjectStore, 'bucket'> = this): Promise<void> {
    // CopySource is a URL path: each segment of the key encoded.
    const source = `${from.bucket}/${sourceKey.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: targetKey, CopySource: source }));
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))));
  }

  async expireLater(keys: readonly string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.client.send(
          new PutObjectTaggingCommand({
            Bucket: this.bucket,
            Key: key,
            Tagging: { TagSet: [{ Key: EXPIRE_TAG.key, Value: EXPIRE_TAG.value }] },
          }),
        ),
      ),
    );
  }

  presignedDownloadUrl(key: string, expiresInSeconds: number, fileName?: string): Promise<string> {
    const disposition = fileName === undefined ? {} : { ResponseContentDisposition: `attachment; filename="${fileName}"` };
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ...disposition }), {
      expiresIn: expiresInSeconds,
    });
  }

  presignedUploadUrl(
    key: string,
    { contentType, sizeBytes }: { contentType: string; sizeBytes: number },
    expiresInSeconds: number,
  ): Promise<string> {
    // Content-Length is among the signed headers, so S3 refuses a PUT of any other length (403).
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes }),
      {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-length']),
      },
    );
  }
}

/**
 * GetObject says NoSuchKey; HeadObject, which has no body, says NotFound. A function may read only
 * its own prefixes and may not list the bucket (infra/constructs/service-resources.ts), and S3 then
 * answers 403 for a key that is not there, so as not to tell it apart from one that is.
 */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return error instanceof NoSuchKey || name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 403;
}
