/**
 * A request cut off part-way, as a Lambda that times out or a killed process leaves it: a method of
 * one of the runtime's services dies on the calls chosen, and the files kept are listed afterwards.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { requireSetting } from '../../shared/platform/config';
import { createS3Client } from '../../shared/platform/objects/s3-object-store';
import type { Runtime } from '../../shared/platform/runtime';

/** Runs `work` while `target[method]` throws for the calls `dies` picks; the method is restored after. */
export async function cutOffAt<T extends object, K extends keyof T>(
  target: T,
  method: K,
  dies: (...args: unknown[]) => boolean,
  work: () => Promise<void>,
): Promise<void> {
  const original = target[method] as (...args: unknown[]) => unknown;
  target[method] = ((...args: unknown[]) => {
    if (dies(...args)) return Promise.reject(new Error('cut off'));
    return original.apply(target, args);
  }) as T[K];
  try {
    await work();
  } finally {
    target[method] = original as T[K];
  }
}

/** Every key in the runtime's bucket under `prefix`. */
export async function objectKeysUnder(
  runtime: Runtime,
  prefix: string,
  bucket: 'bucketName' | 'resultsBucketName' = 'bucketName',
): Promise<string[]> {
  const client = createS3Client(runtime.config);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: requireSetting(runtime.config, bucket), Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}
