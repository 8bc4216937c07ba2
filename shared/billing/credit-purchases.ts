/**
 * The rules of a credits purchase: which quantities a hosted page takes, and the guard that keeps
 * every stored count an exact JavaScript number. Pure.
 */
import { invalidInput } from '../platform/errors';
import { CREDITS } from './offers';

/** What the quantity must be, in the words every refusal uses. */
export const CREDIT_QUANTITY_RULE =
  `The quantity must be a whole number of millions from ${CREDITS.minimumMillions} to ` +
  `${CREDITS.maximumMillions.toLocaleString('en-US')}.`;

/** A quantity a checkout may sell: what Stripe's adjustable quantity (minimum and maximum) lets through. */
export function isCreditQuantity(millions: number): boolean {
  return Number.isSafeInteger(millions) && millions >= CREDITS.minimumMillions && millions <= CREDITS.maximumMillions;
}

/**
 * The quantity typed on a hosted page: ASCII digits only (no sign, exponent, decimals or spaces,
 * which Number() would quietly accept), within the limits; undefined otherwise.
 */
export function parseCreditQuantity(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const millions = Number(text);
  return isCreditQuantity(millions) ? millions : undefined;
}

/**
 * Credits bought with `millions` units of the credits product. Refuses (invalid_input) any number
 * that is not a positive integer or whose credits pass Number.MAX_SAFE_INTEGER: such a count
 * cannot be stored and read back exactly. Stripe caps the quantity on its page; this guards
 * whatever reaches the ledger.
 */
export function creditsForMillions(millions: number): number {
  const credits = millions * CREDITS.perMillion;
  if (!Number.isSafeInteger(millions) || millions <= 0 || !Number.isSafeInteger(credits)) {
    throw invalidInput(`A purchase of ${millions} million credits cannot be counted exactly; nothing was changed.`);
  }
  return credits;
}

/** The amount paid, in cents: a non-negative safe integer, else refused like an uncountable quantity. */
export function paidCents(amountPaidCents: number): number {
  if (!Number.isSafeInteger(amountPaidCents) || amountPaidCents < 0) {
    throw invalidInput(`An amount paid of ${amountPaidCents} cents cannot be counted exactly; nothing was changed.`);
  }
  return amountPaidCents;
}

/**
 * The largest balance and total spent a purchase may be added to, so that the sums stay exact
 * (the ledger makes them conditions of its write).
 */
export function purchaseCeilings(purchase: { credits: number; amountPaidCents: number }): {
  creditsRemaining: number;
  totalSpentCents: number;
} {
  return {
    creditsRemaining: Number.MAX_SAFE_INTEGER - purchase.credits,
    totalSpentCents: Number.MAX_SAFE_INTEGER - purchase.amountPaidCents,
  };
}
