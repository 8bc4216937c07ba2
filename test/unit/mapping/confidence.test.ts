/** Confidence levels: the rule a row's level follows, and the study that chooses its cut-offs (npm run train:matcher). */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CONFIDENCE_CUTOFFS, confidenceOf } from '../../../shared/mapping/confidence';
import { answersOf, chooseCutoffs, precisionByLevel, type ScoredAnswer } from '../../../infra/matcher-training/confidence-study';
import type { MappingResult } from '../../../shared/mapping/types';

const result = (
  partnerHotelId: string,
  status: MappingResult['status'],
  referenceHotelId: string | null,
  score: number,
): MappingResult => ({
  partnerHotelId,
  partnerHotelName: partnerHotelId,
  referenceHotelId,
  referenceHotelName: referenceHotelId,
  status,
  method: status === 'UNMATCHED' ? null : 'FUZZY',
  score,
  evidence: null,
  candidates: [],
});

describe('confidenceOf', () => {
  it("levels a proposal by its score, an unmatched row by one less its best candidate's, a person's decision HIGH", () => {
    assert.equal(confidenceOf({ status: 'MATCHED', method: 'FUZZY', score: CONFIDENCE_CUTOFFS.HIGH }), 'HIGH');
    assert.equal(confidenceOf({ status: 'MATCHED', method: 'FUZZY', score: CONFIDENCE_CUTOFFS.HIGH - 0.001 }), 'MEDIUM');
    assert.equal(confidenceOf({ status: 'REVIEW', method: 'FUZZY', score: CONFIDENCE_CUTOFFS.MEDIUM - 0.001 }), 'LOW');
    assert.equal(confidenceOf({ status: 'UNMATCHED', method: null, score: 0 }), 'HIGH', 'no candidate at all');
    assert.equal(
      confidenceOf({ status: 'UNMATCHED', method: null, score: 1 - CONFIDENCE_CUTOFFS.MEDIUM + 0.01 }),
      'LOW',
      'its best candidate likelier than the cut-off allows',
    );
    assert.equal(confidenceOf({ status: 'UNMATCHED', method: 'MANUAL', score: 0 }), 'HIGH');
    assert.equal(confidenceOf({ status: 'MATCHED', method: 'MANUAL', score: 1 }), 'HIGH');
  });
});

describe('the confidence study', () => {
  it('judges an answer right when its hotel is a labelled match, or when it is unmatched and the row has none', () => {
    const truth = new Map([
      ['p1', new Set(['r1'])],
      ['p2', new Set(['r2'])],
      ['p3', new Set<string>()],
    ]);
    const answers = answersOf(
      [
        result('p1', 'MATCHED', 'r1', 0.9),
        result('p2', 'REVIEW', 'r9', 0.4),
        result('p3', 'UNMATCHED', null, 0.2),
        result('p4', 'UNMATCHED', null, 0),
        result('p2', 'UNMATCHED', null, 0.1),
      ],
      truth,
    );
    assert.deepEqual(answers, [
      { probability: 0.9, right: true },
      { probability: 0.4, right: false },
      { probability: 0.8, right: true },
      { probability: 1, right: true },
      { probability: 0.9, right: false },
    ]);
  });

  it('chooses the least cut-offs at which the answers above are right as often as each target, and counts each level', () => {
    // 100 answers at 1.0 (all right), 100 at 0.9 (95 right), 100 at 0.5 (50 right).
    const answers: ScoredAnswer[] = [
      ...Array.from({ length: 100 }, () => ({ probability: 1, right: true })),
      ...Array.from({ length: 100 }, (_, i) => ({ probability: 0.9, right: i < 95 })),
      ...Array.from({ length: 100 }, (_, i) => ({ probability: 0.5, right: i < 50 })),
    ];
    const cutoffs = chooseCutoffs(answers);
    // At 0.9 the answers above are right 195 times in 200 (97.5 %): under 99 %, over 90 %. At 0.5, 245 in 300 (82 %).
    assert.deepEqual(cutoffs, { HIGH: 0.91, MEDIUM: 0.51 });
    assert.deepEqual(precisionByLevel(answers, cutoffs), {
      HIGH: { rows: 100, precision: 1 },
      MEDIUM: { rows: 100, precision: 0.95 },
      LOW: { rows: 100, precision: 0.5 },
    });
  });
});
