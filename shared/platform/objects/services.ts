/** The runtime's object stores (S3, or s3rver locally), for the functions that read or write files. */
import { requireSetting } from '../config';
import { service } from '../runtime';
import { FileReads } from './block-files';
import type { ObjectStore } from './object-store';
import { createS3Client, S3ObjectStore } from './s3-object-store';

export const objectStoreOf = /* @__PURE__ */ service<ObjectStore>(
  (runtime) => new S3ObjectStore(createS3Client(runtime.config), requireSetting(runtime.config, 'bucketName')),
);

/** The results bucket's store: files made from others and kept for weeks at most (ResourceAccess.resultObjects). */
export const resultObjectStoreOf = /* @__PURE__ */ service<ObjectStore>(
  (runtime) => new S3ObjectStore(createS3Client(runtime.config), requireSetting(runtime.config, 'resultsBucketName')),
);

/** What a function keeps of the files it read (they never change once written), across its requests. */
export const fileReadsOf = /* @__PURE__ */ service(() => new FileReads());
