import { routes } from '../../shared/routes';
import { applyBillingEvent } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/platform/http/handler';
import { paymentsOf } from '../../shared/billing/services';
import { log } from '../../shared/platform/logging';

/** Stripe's deliveries: verified on the raw body, then applied once (shared/billing/billing.ts). */
export const handler = defineHandler(routes.stripeWebhook, async ({ body, headers, requestId }, deps) => {
  const event = await paymentsOf(deps).events.read(body, headers['stripe-signature'], deps.clock.now());
  if ('ignored' in event) {
    log('info', 'payment event ignored', { requestId, type: event.ignored });
    return { status: 200, json: { received: true, outcome: 'ignored' } };
  }
  const outcome = await applyBillingEvent(deps.billing, event);
  log(outcome === 'unknown_customer' ? 'warn' : 'info', 'payment event', { requestId, eventId: event.id, kind: event.kind, outcome });
  return { status: 200, json: { received: true, outcome } };
});
