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

/**
 * Each setting's environment variable, named once: the stack writes them (settingsEnvironment),
 * loadConfig reads them, and a service missing one names it (requireSetting). Queues add one pair
 * per queue (queueUrlVariable, queueArnVariable).
 */
export const SETTING_VARIABLES = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  dynamoDbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  tokenSigningSecret: 'TOKEN_SIGNING_SECRET',
  tokenSigningSecretArn: 'TOKEN_SIGNING_SECRET_ARN',
  stripeSecretKey: 'STRIPE_SECRET_KEY',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET',
  paymentSecretArn: 'PAYMENT_SECRET_ARN',
  stripeApiUrl: 'STRIPE_API_URL',
  schedulerGroupName: 'SCHEDULER_GROUP_NAME',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  secretsKeyArn: 'SECRETS_KEY_ARN',
  localSecretsKey: 'LOCAL_SECRETS_KEY',
} as const satisfies Partial<Record<keyof AppConfig, string>>;

export type TextSetting = keyof typeof SETTING_VARIABLES;

const QUEUE_URL_PREFIX = 'QUEUE_URL_';
const QUEUE_ARN_PREFIX = 'QUEUE_ARN_';
const queueVariableSuffix = (queueName: string) => queueName.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** `mapping-chunks` -> `QUEUE_URL_MAPPING_CHUNKS`: the URL of a queue a function sends to. */
export function queueUrlVariable(queueName: string): string {
  return `${QUEUE_URL_PREFIX}${queueVariableSuffix(queueName)}`;
}

/** `mapping-chunks` -> `QUEUE_ARN_MAPPING_CHUNKS`: the ARN of a queue a function schedules deliveries to. */
export function queueArnVariable(queueName: string): string {
  return `${QUEUE_ARN_PREFIX}${queueVariableSuffix(queueName)}`;
}

/** The environment that carries these settings (what the stack sets on a function). */
export function settingsEnvironment(settings: Partial<Record<TextSetting, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings)
      .filter((entry): entry is [TextSetting, string] => entry[1] !== undefined)
      .map(([key, value]) => [SETTING_VARIABLES[key], value]),
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const text = Object.fromEntries(Object.entries(SETTING_VARIABLES).map(([key, variable]) => [key, env[variable] || undefined])) as Partial<
    Record<TextSetting, string>
  >;
  return {
    ...text,
    stage: text.stage ?? 'local',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    queueUrls: queueSettings(env, QUEUE_URL_PREFIX),
    queueArns: queueSettings(env, QUEUE_ARN_PREFIX),
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

/** A setting the calling service cannot work without; the error names its environment variable. */
export function requireSetting(config: Partial<Pick<AppConfig, TextSetting>>, setting: TextSetting): string {
  return requireVariable(config[setting], SETTING_VARIABLES[setting]);
}

/** A value the calling service cannot work without, read from `variable`. */
export function requireVariable(value: string | undefined, variable: string): string {
  if (!value) throw new Error(`Missing required environment variable ${variable}`);
  return value;
}
