/**
 * What a function may touch, declared beside its route or queue: the stack grants exactly this and
 * sets exactly the matching settings (TABLE_NAME, BUCKET_NAME, QUEUE_URL_…, secret ARNs).
 */
export interface ResourceAccess {
  table: 'none' | 'read' | 'readwrite';
  /**
   * The partition keys its table access is limited to, as IAM StringLike patterns (`APIKEY#*`),
   * on the table and on GSI1 alike (dynamodb:LeadingKeys): required of a public route's function,
   * which answers anyone.
   */
  partitions?: readonly string[];
  /**
   * Narrower than `table`: only these uses of items by key, each on the partitions it names (within
   * `partitions`); no Query, no batch. For a public writer, which answers anyone.
   */
  tableUses?: TableUses;
  /** The files bucket's objects it touches, by key prefix (each prefix a constant of the capability that owns it). */
  objects?: ObjectAccess;
  /**
   * The results bucket's objects it touches, by key prefix: files the service writes from others
   * and keeps for a few weeks at most (a job's results and exports), and presigned uploads waiting
   * for their completion: outside the stage's backups.
   */
  resultObjects?: ObjectAccess;
  /** Queues (by name) the function sends to. */
  sendsTo?: readonly string[];
  /** Queues (by name) the function schedules one-time deliveries to (EventBridge Scheduler). */
  schedules?: readonly string[];
  /**
   * Roles in partners' AWS accounts, which trust the stage's account only under the external id the
   * service issued for each. `describe`: told the account's id, for the trust policy it shows;
   * `assume`: also assumes them (STS AssumeRole, any account).
   */
  partnerRoles?: 'describe' | 'assume';
  /** Encrypts (seal) or decrypts (open) partner secrets with the stage's KMS key (platform/secrets). */
  secrets?: 'seal' | 'open' | 'both';
  /**
   * Signs bearer tokens with the stage's token key (the token endpoint alone). Every route that
   * takes a credential verifies them with the key's public half, which needs no declaration.
   */
  signsTokens?: boolean;
  /**
   * Reads a third-party provider's keys from a secret the platform team fills after deploying
   * (Stripe's, for billing); implies providerIds. `api`: its secret API key, which can charge;
   * `events`: only what verifies its event deliveries and reads back what they name.
   */
  providerKeys?: 'api' | 'events';
  /** Reads the stage's ids of that provider's products and prices (the plan catalogue). */
  providerIds?: boolean;
}

/** Items used by key, by use: the partition patterns (as in ResourceAccess.partitions) each use reaches. */
export type TableUses = { readonly [use in TableUse]?: readonly string[] };
export const TABLE_USES = ['get', 'put', 'update', 'delete'] as const;
export type TableUse = (typeof TABLE_USES)[number];

/**
 * Object keys by prefix, per use. read: GetObject (also an object's size, a presigned download,
 * the source of a copy); write: PutObject (also a presigned upload, the target of a copy); delete:
 * DeleteObject; expire: tagging objects for the bucket to remove later. Objects are only ever
 * fetched by key: nothing lists the bucket.
 */
export type ObjectAccess = { readonly [use in ObjectUse]?: readonly string[] };
export const OBJECT_USES = ['read', 'write', 'delete', 'expire'] as const;
export type ObjectUse = (typeof OBJECT_USES)[number];

/** The two buckets: the files bucket (backed up on a stage that keeps its data) and the results bucket. */
export type BucketAccess = 'objects' | 'resultObjects';

/** The prefixes of the objects of a bucket the function may use so; none when it declares none. */
export function objectPrefixes(
  access: Pick<ResourceAccess, BucketAccess>,
  use: ObjectUse,
  bucket: BucketAccess = 'objects',
): readonly string[] {
  return access[bucket]?.[use] ?? [];
}

/** Whether the function touches a bucket at all (and so is told its name). */
export function touchesObjects(access: Pick<ResourceAccess, BucketAccess>, bucket: BucketAccess = 'objects'): boolean {
  return OBJECT_USES.some((use) => objectPrefixes(access, use, bucket).length > 0);
}
