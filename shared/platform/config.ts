/**
 * Runtime settings, read once from the environment. The CDK stack sets the AWS values on each
 * function; the local runtime sets the endpoints of its stand-ins.
 */
import { priceIdsFromEnvironment, type ProviderPriceIds } from '../billing/catalogue';

export interface AppConfig {
  /** Deployment stage name, e.g. "dev", "prod", "local". */
  stage: string;
  region: string;
  tableName: string;
  bucketName: string;
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
  /** The payment provider's price and product ids of this stage; LOCAL_PRICE_IDS when unset. */
  priceIds?: ProviderPriceIds;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    stage: env.STAGE ?? 'local',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    tableName: required(env, 'TABLE_NAME'),
    bucketName: required(env, 'BUCKET_NAME'),
    dynamoDbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    tokenSigningSecret: env.TOKEN_SIGNING_SECRET || undefined,
    tokenSigningSecretArn: env.TOKEN_SIGNING_SECRET_ARN || undefined,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    paymentSecretArn: env.PAYMENT_SECRET_ARN || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    priceIds: priceIdsFromEnvironment(env),
  };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}
