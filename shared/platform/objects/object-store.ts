/** The object store port (S3 in AWS, s3rver locally): files handed out as presigned URLs. */
/** Bytes of an object: `length` of them from `start`. */
export interface ByteRange {
  start: number;
  length: number;
}

export interface ObjectStore {
  /** The bucket this store reads and writes. */
  readonly bucket: string;
  put(key: string, body: Buffer | string, contentType: string): Promise<void>;
  /** The object's bytes (with a range, only those), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<Buffer | undefined>;
  /** Copies an object of this bucket, or of the `from` store's, here (its content type with it), without reading it here. */
  copy(sourceKey: string, targetKey: string, from?: Pick<ObjectStore, 'bucket'>): Promise<void>;
  /** Removes objects; keys that do not exist are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /** Marks objects to be removed a day from now (a bucket lifecycle rule on the tag `expire=1d`). */
  expireLater(keys: readonly string[]): Promise<void>;
  /** A URL that downloads the object without credentials until it expires. */
  /** A GET URL valid `expiresInSeconds`; with `fileName`, the download is saved under that name (Content-Disposition). */
  presignedDownloadUrl(key: string, expiresInSeconds: number, fileName?: string): Promise<string>;
  /**
   * A URL that uploads the object with one PUT of exactly `sizeBytes` bytes (the given Content-Type)
   * until it expires: the length is signed, so a PUT of any other size is refused.
   */
  presignedUploadUrl(key: string, upload: { contentType: string; sizeBytes: number }, expiresInSeconds: number): Promise<string>;
  /** The object's size in bytes, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
}
