/**
 * What a function may touch, declared beside its route or queue: the stack grants exactly this and
 * sets exactly the matching settings (TABLE_NAME, BUCKET_NAME, QUEUE_URL_…, secret ARNs).
 */
export interface ResourceAccess {
  table: 'none' | 'read' | 'readwrite';
  /** read: GetObject by key; write: PutObject; readwrite: both, plus deleting and tagging objects. */
  bucket?: 'read' | 'write' | 'readwrite';
  /** Queues (by name) the function sends to. */
  sendsTo?: readonly string[];
  /** Queues (by name) the function schedules one-time deliveries to (EventBridge Scheduler). */
  schedules?: readonly string[];
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
