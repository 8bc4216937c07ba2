/**
 * Runtime settings, read once from the environment. The CDK stack sets on each function only what
 * its route declares (a table, a bucket, a secret); the local runtime sets its stand-ins' endpoints.
 * A setting a function never uses may be absent: the service that needs it says so on first use.
 */
export interface AppConfig {
  /** Deployment stage name, e.g. "dev", "prod", "local". */
  stage: string;
  region: string;
  tableName?: string;
  bucketName?: string;
  /** DynamoDB Local's URL; unset in AWS. */
  dynamoDbEndpoint?: string;
  /** s3rver's URL (path-style addressing); unset in AWS. */
  s3Endpoint?: string;
  /** Bearer-token signing secret given directly (local runtime only). */
  tokenSigningSecret?: string;
  /** Secrets Manager ARN holding the bearer-token signing secret (AWS). */
  tokenSigningSecretArn?: string;
  /** Stripe keys given directly; without both (and without paymentSecretArn) the local payment provider is used. */
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  /** Secrets Manager ARN holding the Stripe keys as JSON {secretKey, webhookSecret} (AWS). */
  paymentSecretArn?: string;
  /** Another Stripe API address (tests, stripe-mock); unset = api.stripe.com. */
  stripeApiUrl?: string;
  /** Queue name -> SQS URL (QUEUE_URL_<NAME>) and ARN (QUEUE_ARN_<NAME>), for the queues a function sends to. */
  queueUrls?: Readonly<Record<string, string>>;
  queueArns?: Readonly<Record<string, string>>;
  /** EventBridge Scheduler group and the role its schedules send with (functions that schedule). */
  schedulerGroupName?: string;
  schedulerRoleArn?: string;
  /** KMS key that encrypts partner secrets (AWS). */
  secretsKeyArn?: string;
  /** Key that encrypts partner secrets, base64 of 32 bytes (local runtime and tests only). */
  localSecretsKey?: string;
  /**
   * Lets webhooks go to loopback receivers (http://127.0.0.1, localhost). Set only by the local
   * runtime (infra/local, from WEBHOOKS_ALLOW_LOOPBACK=true): never read from a function's environment.
   */
  webhooksAllowLoopback?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    stage: env.STAGE ?? 'local',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    tableName: env.TABLE_NAME || undefined,
    bucketName: env.BUCKET_NAME || undefined,
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    tokenSigningSecret: env.TOKEN_SIGNING_SECRET || undefined,
    tokenSigningSecretArn: env.TOKEN_SIGNING_SECRET_ARN || undefined,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    paymentSecretArn: env.PAYMENT_SECRET_ARN || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    queueUrls: queueSettings(env, 'QUEUE_URL_'),
    queueArns: queueSettings(env, 'QUEUE_ARN_'),
    schedulerGroupName: env.SCHEDULER_GROUP_NAME || undefined,
    schedulerRoleArn: env.SCHEDULER_ROLE_ARN || undefined,
    secretsKeyArn: env.SECRETS_KEY_ARN || undefined,
    localSecretsKey: env.LOCAL_SECRETS_KEY || undefined,
  };
}

/** QUEUE_URL_MAPPING_CHUNKS=… -> { 'mapping-chunks': … } */
function queueSettings(env: NodeJS.ProcessEnv, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter(([name, value]) => name.startsWith(prefix) && value)
      .map(([name, value]) => [name.slice(prefix.length).toLowerCase().replace(/_/g, '-'), value!]),
  );
}

/** A setting the calling service cannot work without; the error names the environment variable. */
export function requireSetting(value: string | undefined, variable: string): string {
  if (!value) throw new Error(`Missing required environment variable ${variable}`);
  return value;
}
