/** The object store (S3, or s3rver locally), for the functions that read or write files. */
import type { ObjectStore } from './object-store';
import { createS3Client, S3ObjectStore } from './s3-object-store';
import { extension } from '../runtime';

export const objectStoreOf = extension<ObjectStore>(
  (deps) => new S3ObjectStore(createS3Client(deps.config), deps.config.bucketName),
);
