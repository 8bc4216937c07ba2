/**
 * Signatures as the Standard Webhooks specification makes them (the `standardwebhooks` library):
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the `whsec_` secret, sent as
 * `v1,<base64>`; during a rotation's grace period one signature per live secret, space-separated.
 * X-Webhook-Signature, the contract's header, carries the same value.
 */
import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signatureHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signature = secrets.map((secret) => new StandardWebhook(secret).sign(messageId, at, body)).join(' ');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
    'X-Webhook-Signature': signature,
  };
}
