/** Reason codes: every text the engine writes stands for its code, and a row's code follows from it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import {
  PLAUSIBLE_SCORE,
  REASON_CODE_MEANINGS,
  REASON_CODES,
  REASONS,
  reasonCodeOf,
  type ReasonCode,
} from '../../../shared/mapping/reasons';

const candidate = { referenceHotelId: 'r2', referenceHotelName: 'Other', score: 0.2, nameSimilarity: 0.5, distanceMeters: 40 };
const row = (
  status: 'REVIEW' | 'UNMATCHED' | 'MATCHED',
  reason?: string,
  candidates = [candidate],
  method: 'FUZZY' | 'ID' | 'MANUAL' | null = 'FUZZY',
) => ({ status, method, reason, candidates, score: 0.2 });

describe('reasonCodeOf', () => {
  it('gives every text the engine writes its code', () => {
    const texts: [string, ReasonCode][] = [
      [REASONS.differentKind('gym'), 'DIFFERENT_KIND_OF_PLACE'],
      [REASONS.ambiguous(2), 'AMBIGUOUS_MATCH'],
      [REASONS.outletBeyondReach(1800), 'CHAIN_OUTLET_UNCLEAR'],
      [REASONS.partialAgreement(), 'BELOW_THRESHOLD'],
      [REASONS.claimedByStronger('P-7'), 'CLAIMED_BY_ANOTHER_ROW'],
      [REASONS.supplierCodeImplausible(), 'SUPPLIER_CODE_MISMATCH'],
      [REASONS.supplierCodeNotFound('HOTELBEDS', '123'), 'SUPPLIER_CODE_NOT_FOUND'],
      [REASONS.supplierCodeMissing(), 'SUPPLIER_CODE_MISSING'],
    ];
    for (const [text, code] of texts) assert.equal(reasonCodeOf(row('REVIEW', text)), code, text);
    assert.equal(Object.keys(REASONS).length, texts.length + 1, 'every text but the listed-twice one, which leaves a row MATCHED');
  });

  it('tells an unmatched row with no candidate from one whose best candidate was too weak, whatever its text', () => {
    assert.equal(reasonCodeOf(row('UNMATCHED', undefined, [])), 'NO_CANDIDATES');
    assert.equal(
      reasonCodeOf({ ...row('UNMATCHED', undefined), score: PLAUSIBLE_SCORE / 2 }),
      'NO_CANDIDATES',
      'a candidate no more likely than that is none',
    );
    assert.equal(reasonCodeOf({ ...row('UNMATCHED', undefined), score: PLAUSIBLE_SCORE }), 'BELOW_THRESHOLD');
    assert.equal(reasonCodeOf(row('UNMATCHED', REASONS.differentKind('spa'))), 'DIFFERENT_KIND_OF_PLACE');
    assert.equal(reasonCodeOf(row('UNMATCHED', REASONS.supplierCodeNotFound('EXPEDIA', '9'), [], 'ID')), 'SUPPLIER_CODE_NOT_FOUND');
  });

  it("gives a person's NO_MATCH its own code, and a MATCHED row none", () => {
    assert.equal(reasonCodeOf(row('UNMATCHED', undefined, [], 'MANUAL')), 'DECIDED_NO_MATCH');
    assert.equal(reasonCodeOf(row('MATCHED', undefined, [], 'MANUAL')), undefined);
    assert.equal(reasonCodeOf(row('MATCHED', REASONS.listedTwice('P-1'))), undefined);
    assert.equal(reasonCodeOf(row('REVIEW', 'a text from before the codes')), 'BELOW_THRESHOLD');
  });

  it("documents every code, here and in the partner's guide", () => {
    assert.deepEqual(Object.keys(REASON_CODE_MEANINGS).sort(), [...REASON_CODES].sort());
    const guide = readFileSync(new URL('../../../docs/guides/partner.md', import.meta.url), 'utf8');
    for (const code of REASON_CODES) assert.match(guide, new RegExp(`^\\| \`${code}\` \\| `, 'm'), code);
  });
});
