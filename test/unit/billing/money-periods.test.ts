import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { centsToEuros, creditPriceCents, creditsToEuros, formatEuros, percentage } from '../../../shared/billing/money';
import { addMonths, billingMonth, daysInMonth, recentMonths, utcDay } from '../../../shared/billing/periods';

describe('euros at the edge', () => {
  it('formats integer cents as euro text', () => {
    assert.equal(formatEuros(0), '€0.00');
    assert.equal(formatEuros(100), '€1.00');
    assert.equal(formatEuros(4_900), '€49.00');
    assert.equal(formatEuros(5), '€0.05');
    assert.equal(formatEuros(123_456_78), '€123,456.78');
    assert.equal(formatEuros(-250), '-€2.50');
  });

  it('converts cents and credits to euro numbers', () => {
    assert.equal(centsToEuros(4_900), 49);
    assert.equal(creditsToEuros(1_000_000), 1);
    assert.equal(creditsToEuros(5_000_000), 5);
    assert.equal(creditsToEuros(500), 0.0005);
    assert.equal(creditPriceCents(5), 500);
  });

  it('percentages stay within 0 to 100 with two decimals', () => {
    assert.equal(percentage(1, 3), 33.33);
    assert.equal(percentage(5, 4), 100);
    assert.equal(percentage(0, 0), 0);
    assert.equal(percentage(1, 0), 100);
  });
});

describe('periods (UTC)', () => {
  it('names the UTC day and month, whatever the local offset of the instant', () => {
    const lateEvening = new Date('2026-11-30T23:59:59.999Z');
    assert.equal(utcDay(lateEvening), '2026-11-30');
    assert.equal(billingMonth(lateEvening), '2026-11');
    const midnight = new Date('2026-12-01T00:00:00.000Z');
    assert.equal(utcDay(midnight), '2026-12-01');
    assert.equal(billingMonth(midnight), '2026-12');
    assert.equal(utcDay(new Date('2026-12-01T01:30:00+02:00')), '2026-11-30');
  });

  it('counts the days of a month, leap years included', () => {
    assert.deepEqual(['2026-01', '2026-02', '2026-04', '2028-02', '2100-02', '2000-02'].map(daysInMonth), [31, 28, 30, 29, 28, 29]);
  });

  it('moves across year boundaries', () => {
    assert.equal(addMonths('2026-01', -1), '2025-12');
    assert.equal(addMonths('2026-12', 1), '2027-01');
    assert.equal(addMonths('2026-05', -17), '2024-12');
  });

  it('lists recent months, most recent first, stopping at the earliest', () => {
    assert.deepEqual(recentMonths('2026-02', 4), ['2026-02', '2026-01', '2025-12', '2025-11']);
    assert.deepEqual(recentMonths('2026-02', 12, '2026-01'), ['2026-02', '2026-01']);
    assert.deepEqual(recentMonths('2026-02', 0), []);
  });
});
