/**
 * Money is integer everywhere inside: cents for prices and payments, credit units for usage
 * (1 credit = 1 mapping = one millionth of a euro). Euros appear only at the HTTP edge.
 */
import { CREDITS } from './offers';

/** The ISO 4217 code of every price, as the plans show it beside each amount. */
export const CURRENCY = 'EUR';

/** Credit units in one euro. */
const CREDITS_PER_EURO = CREDITS.perMillion * (100 / CREDITS.centsPerMillion);

/** "€49.00", "€1,234.50": the text form of a price. */
export function formatEuros(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.trunc(cents));
  const whole = Math.floor(absolute / 100).toLocaleString('en-US');
  return `${sign}€${whole}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Euros as a JSON number, for cents. */
export function centsToEuros(cents: number): number {
  return cents / 100;
}

/** Euros as a JSON number, for credit units (a credit is worth a millionth of a euro). */
export function creditsToEuros(credits: number): number {
  return credits / CREDITS_PER_EURO;
}

/** What buying `millions` million credits costs, in cents. */
export function creditPriceCents(millions: number): number {
  return millions * CREDITS.centsPerMillion;
}

/** Percentage of `used` over `limit`, 0 to 100, two decimals. */
export function percentage(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / limit) * 10_000) / 100);
}
