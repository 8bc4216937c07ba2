/** Webhooks: legacy export webhooks and signed, retried subscriptions with a delivery history. */
export { legacyWebhookRoutes, subscriptionRoutes } from './routes';
export {
  createLegacyWebhook,
  createWebhookSubscription,
  deleteLegacyWebhook,
  deleteWebhookSubscription,
  getDelivery,
  getLegacyWebhook,
  getWebhookSubscription,
  listDeliveries,
  listLegacyWebhooks,
  listWebhookSubscriptions,
  redeliver,
  replaceLegacyWebhook,
  rotateSigningSecret,
  sendTestEvent,
  updateWebhookSubscription,
} from './endpoints';
export { domainEventQueue, webhookDeliveryQueue } from './queues';
export { WEBHOOK_VERIFICATION, webhookDescriptions } from './payloads';
export { abandonWebhookAttempt, attemptWebhookDelivery, deliverEvent } from './workers';
export { webhookComponentSchemas } from './schemas';
export { WEBHOOK_METRICS } from './dispatch';
export { RETRY_DELAYS_SECONDS } from './delivery';
export { receivesEvent } from './services';
