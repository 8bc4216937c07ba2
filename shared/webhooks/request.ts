/** The HTTP request of an attempt: the partner's own header on legacy webhooks, signatures on subscriptions. */
import type { SecretBox } from '../platform/secrets/secret-box';
import { USER_AGENT, type Delivery } from './delivery';
import type { WebhookRequest } from './sender';
import { signatureHeaders } from './signing';
import { liveSigningSecrets, secretContext, type Webhook } from './webhook';

export async function requestOf(secrets: SecretBox, webhook: Webhook, delivery: Delivery, now: Date): Promise<WebhookRequest> {
  const ours = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (webhook.kind === 'EXPORT_WEBHOOK') {
    const apiKey =
      webhook.apiKeyName && webhook.apiKeyValueSealed
        ? { [webhook.apiKeyName]: await secrets.open(webhook.apiKeyValueSealed, secretContext(webhook, 'api-key-value')) }
        : {};
    return { url: webhook.url, headers: { ...webhook.additionalHeaders, ...apiKey, ...ours }, body: delivery.payload };
  }
  const keys = await Promise.all(
    liveSigningSecrets(webhook, now).map((secret) => secrets.open(secret.sealed, secretContext(webhook, 'signing-secret'))),
  );
  return {
    url: webhook.url,
    headers: { ...ours, ...signatureHeaders(delivery.eventId, now, delivery.payload, keys) },
    body: delivery.payload,
  };
}
