/**
 * The stage's Stripe keys, in two secrets the platform team fills after deploying (operator's guide, The payment provider):
 * the secret API key, which can charge and refund, for the functions that open checkouts and the
 * portal; and the webhook's signing secret with a read-only restricted key, for the public webhook
 * function alone. Each is created holding its shape with placeholders, which the code reads as
 * "not set up yet" and says what to store.
 */
import { SecretValue } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { STRIPE_SECRET_SHAPES, UNSET_STRIPE_KEY } from '../../shared/billing';

export class StripeSecrets extends Construct {
  /** {"secretKey": "sk_…"}: checkout, credits purchase, portal, subscription. */
  readonly apiKey: secretsmanager.Secret;
  /** {"signingSecret": "whsec_…", "readKey": "rk_…"}: the webhook function. */
  readonly webhook: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.apiKey = placeholderSecret(this, 'ApiKey', 'apiKey', 'Stripe secret API key as JSON {"secretKey": "sk_..."}; set after deploying');
    this.webhook = placeholderSecret(
      this,
      'Webhook',
      'webhook',
      'Stripe webhook signing secret and a restricted key that reads Checkout Sessions and Subscriptions, as JSON {"signingSecret": "whsec_...", "readKey": "rk_..."}; set after deploying',
    );
  }
}

function placeholderSecret(
  scope: Construct,
  id: string,
  shape: keyof typeof STRIPE_SECRET_SHAPES,
  description: string,
): secretsmanager.Secret {
  // Placeholders, not secrets: the real keys are stored by hand and never pass through a template.
  const placeholders = Object.fromEntries(
    Object.keys(STRIPE_SECRET_SHAPES[shape]).map((name) => [name, SecretValue.unsafePlainText(UNSET_STRIPE_KEY)]),
  );
  return new secretsmanager.Secret(scope, id, { description, secretObjectValue: placeholders });
}
