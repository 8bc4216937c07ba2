/** The payment provider (Stripe, or the local one) for the billing functions that call it. */
import { priceIdsOf } from './catalogue';
import { createPayments } from './payments/payments';
import { extension, type Dependencies } from '../platform/runtime';

export const paymentsOf = extension((deps) =>
  createPayments({ ...deps.config, priceIds: priceIdsOf(deps.config) }, deps.clock),
);

/** The ports the billing use cases work through. */
export function billingPorts(deps: Dependencies) {
  return { ledger: deps.billing, provider: paymentsOf(deps).provider, priceIds: priceIdsOf(deps.config) };
}
