import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  CREDIT_QUANTITY_RULE,
  creditsForMillions,
  isCreditQuantity,
  paidCents,
  parseCreditQuantity,
  purchaseCeilings,
} from '../../../shared/billing/credit-purchases';
import { DomainError } from '../../../shared/platform/errors';

describe('the quantity typed on a hosted page', () => {
  it('takes ASCII digits only, from 5 to 10,000 millions', () => {
    assert.equal(parseCreditQuantity('5'), 5);
    assert.equal(parseCreditQuantity('12'), 12);
    assert.equal(parseCreditQuantity('10000'), 10_000);
    assert.equal(parseCreditQuantity('0012'), 12);
    for (const text of [
      '4',
      '0',
      '10001',
      '1e9',
      '99999999999999999999',
      '5.0',
      '5.5',
      '-5',
      '+5',
      ' 5',
      '5 ',
      '',
      '0x10',
      'Infinity',
      '١٢',
      '５',
    ]) {
      assert.equal(parseCreditQuantity(text), undefined, JSON.stringify(text));
    }
    assert.equal(CREDIT_QUANTITY_RULE, 'The quantity must be a whole number of millions from 5 to 10,000.');
  });

  it('isCreditQuantity: a safe integer within the limits', () => {
    assert.deepEqual([5, 10_000, 4, 10_001, 5.5, Number.NaN, Infinity].map(isCreditQuantity), [
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('what reaches the ledger', () => {
  const refused = (run: () => unknown) =>
    assert.throws(run, (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input');

  it('credits: millions × 1,000,000, only while that is a safe integer', () => {
    assert.equal(creditsForMillions(7), 7_000_000);
    assert.equal(creditsForMillions(9_000_000_000), 9_000_000_000_000_000);
    refused(() => creditsForMillions(99_999_999_999));
    refused(() => creditsForMillions(0));
    refused(() => creditsForMillions(-5));
    refused(() => creditsForMillions(5.5));
    refused(() => creditsForMillions(Number.NaN));
  });

  it('amounts paid: non-negative safe integers (cents)', () => {
    assert.equal(paidCents(0), 0);
    assert.equal(paidCents(700), 700);
    refused(() => paidCents(-1));
    refused(() => paidCents(1.5));
    refused(() => paidCents(2 ** 53));
  });

  it('ceilings: the largest balance and total a purchase may be added to', () => {
    assert.deepEqual(purchaseCeilings({ credits: 5_000_000, amountPaidCents: 500 }), {
      creditsRemaining: Number.MAX_SAFE_INTEGER - 5_000_000,
      totalSpentCents: Number.MAX_SAFE_INTEGER - 500,
    });
  });
});
