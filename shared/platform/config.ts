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
  /** The results bucket: a job's results and exports, kept weeks at most and not backed up. */
  resultsBucketName?: string;
  /** DynamoDB Local's URL; unset in AWS. */
  dynamoDbEndpoint?: string;
  /** s3rver's URL (path-style addressing); unset in AWS. */
  s3Endpoint?: string;
  /** Asymmetric KMS key (ECC_NIST_P256) that signs bearer tokens, and whose public half verifies them (AWS). */
  tokenSigningKeyArn?: string;
  /** P-256 private key (PKCS#8 PEM) that signs and verifies bearer tokens (local runtime and tests only). */
  localTokenSigningKey?: string;
  /**
   * Queue name -> SQS URL (QUEUE_URL_<NAME>) for the queues a function sends to; ARN (QUEUE_ARN_<NAME>)
   * and dead-letter queue ARN (QUEUE_DEAD_LETTERS_ARN_<NAME>) for the queues it schedules deliveries to.
   */
  queueUrls?: Readonly<Record<string, string>>;
  queueArns?: Readonly<Record<string, string>>;
  queueDeadLetterArns?: Readonly<Record<string, string>>;
  /** EventBridge Scheduler group and the role its schedules send with (functions that schedule). */
  schedulerGroupName?: string;
  schedulerRoleArn?: string;
  /** The AWS account the stage runs in: partners' roles trust it (their trust policies name it). */
  accountId?: string;
  /** KMS key that encrypts partner secrets (AWS). */
  secretsKeyArn?: string;
  /** Key that encrypts partner secrets, base64 of 32 bytes (local runtime and tests only). */
  localSecretsKey?: string;
  /**
   * The environment variables a capability's own settings are read from (defineSettings): the
   * function's environment in AWS; what the local runtime or a test gives otherwise.
   */
  variables?: Readonly<Record<string, string | undefined>>;
  /**
   * Allowances only the local runtime and tests give, never read from a function's environment:
   * the capability that honours one names it (webhooks to loopback receivers, say).
   */
  localAllowances?: readonly string[];
}

/**
 * The platform's settings, each with its environment variable, named once: the stack writes them
 * (PLATFORM_SETTINGS.environment), loadConfig reads them, and a service missing one names it
 * (requireSetting). Queues add one pair per queue (queueUrlVariable, queueArnVariable); a
 * capability names its own settings the same way (defineSettings).
 */
export const PLATFORM_SETTINGS = defineSettings({
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  resultsBucketName: 'RESULTS_BUCKET_NAME',
  dynamoDbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  tokenSigningKeyArn: 'TOKEN_SIGNING_KEY_ARN',
  localTokenSigningKey: 'LOCAL_TOKEN_SIGNING_KEY',
  schedulerGroupName: 'SCHEDULER_GROUP_NAME',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  secretsKeyArn: 'SECRETS_KEY_ARN',
  accountId: 'SERVICE_ACCOUNT_ID',
  localSecretsKey: 'LOCAL_SECRETS_KEY',
} satisfies Partial<Record<keyof AppConfig, string>>);

export type PlatformSetting = keyof typeof PLATFORM_SETTINGS.variables;

const QUEUE_URL_PREFIX = 'QUEUE_URL_';
const QUEUE_ARN_PREFIX = 'QUEUE_ARN_';
const QUEUE_DEAD_LETTERS_ARN_PREFIX = 'QUEUE_DEAD_LETTERS_ARN_';
const queueVariableSuffix = (queueName: string) => queueName.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** `mapping-chunks` -> `QUEUE_URL_MAPPING_CHUNKS`: the URL of a queue a function sends to. */
export function queueUrlVariable(queueName: string): string {
  return `${QUEUE_URL_PREFIX}${queueVariableSuffix(queueName)}`;
}

/** `mapping-chunks` -> `QUEUE_ARN_MAPPING_CHUNKS`: the ARN of a queue a function schedules deliveries to. */
export function queueArnVariable(queueName: string): string {
  return `${QUEUE_ARN_PREFIX}${queueVariableSuffix(queueName)}`;
}

/** `mapping-chunks` -> `QUEUE_DEAD_LETTERS_ARN_MAPPING_CHUNKS`: where a schedule to that queue goes when it cannot be delivered. */
export function queueDeadLetterArnVariable(queueName: string): string {
  return `${QUEUE_DEAD_LETTERS_ARN_PREFIX}${queueVariableSuffix(queueName)}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const text = PLATFORM_SETTINGS.read({ variables: env });
  return {
    ...text,
    stage: text.stage ?? 'local',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    queueUrls: queueSettings(env, QUEUE_URL_PREFIX),
    queueArns: queueSettings(env, QUEUE_ARN_PREFIX),
    queueDeadLetterArns: queueSettings(env, QUEUE_DEAD_LETTERS_ARN_PREFIX),
    variables: env,
  };
}

/** A capability's own settings, each with its environment variable, named once. */
export interface Settings<K extends string> {
  readonly variables: Readonly<Record<K, string>>;
  /** The values the runtime's configuration holds; unset ones are absent. */
  read(config: Pick<AppConfig, 'variables'>): Partial<Record<K, string>>;
  /** The environment that carries these values (what the stack sets on a function, or a test gives). */
  environment(values: Partial<Record<K, string>>): Record<string, string>;
}

export function defineSettings<const K extends string>(variables: Readonly<Record<K, string>>): Settings<K> {
  const keys = Object.keys(variables) as K[];
  return {
    variables,
    read: (config) =>
      Object.fromEntries(
        keys.flatMap((key) => (config.variables?.[variables[key]] ? [[key, config.variables[variables[key]]]] : [])),
      ) as Partial<Record<K, string>>,
    environment: (values) => Object.fromEntries(keys.flatMap((key) => (values[key] !== undefined ? [[variables[key], values[key]]] : []))),
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
export function requireSetting(config: Partial<Pick<AppConfig, PlatformSetting>>, setting: PlatformSetting): string {
  return requireVariable(config[setting], PLATFORM_SETTINGS.variables[setting]);
}

/** A value the calling service cannot work without, read from `variable`. */
export function requireVariable(value: string | undefined, variable: string): string {
  if (!value) throw new Error(`Missing required environment variable ${variable}`);
  return value;
}
