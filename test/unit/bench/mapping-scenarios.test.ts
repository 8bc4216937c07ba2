/**
 * The scenarios of `npm run bench:mapping` (test/bench/mapping-scenarios.ts) and the figures printed
 * from them: the rows must be what the generator's header says (issue 14's targets are read from
 * them), the same for a seed, and the report's scores and pin-only ceiling must be counted right.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { MappingResult, ReferenceHotel } from '../../../shared/mapping';
import { distanceMeters } from '../../../shared/mapping/similarity';
import { scoreMatches } from '../../bench/mapping-metrics';
import {
  DENSE_CHAINS,
  EQUIDISTANT,
  OUTLET,
  OUTLET_MISSING,
  OUTLET_PIN_NEARER_ANOTHER,
  PARENT_ABSENT,
  SUB_PLACES,
  type ScenarioRow,
  scenarioReport,
  scenarioSet,
} from '../../bench/mapping-scenarios';

const SEED = 20261125;
const set = scenarioSet({ seed: SEED, rowsPerScenario: 400 });
const referenceById = new Map(set.reference.map((hotel) => [hotel.id, hotel]));
/** The chain's outlets in the reference, by chain and city (one cluster each). */
const outletsOfCluster = new Map<string, ReferenceHotel[]>();
for (const hotel of set.reference) {
  if (hotel.chain === undefined) continue;
  const key = `${hotel.chain}|${hotel.city}`;
  outletsOfCluster.set(key, [...(outletsOfCluster.get(key) ?? []), hotel]);
}
const chainRows = set.partners.filter((row) => set.rows.get(row.id)!.scenario === DENSE_CHAINS);
const metresBetween = (a: { lat?: number; lon?: number }, b: { lat?: number; lon?: number }) =>
  distanceMeters(a.lat!, a.lon!, b.lat!, b.lon!);
/** The generator measures on a flat square around the cluster: allow for the sphere and the 6-decimal rounding. */
const slack = (metres: number) => 0.5 + 0.005 * metres;

describe('bench:mapping scenarios', () => {
  it('are the same for a seed, and each row has what it is and, unless it must stay unmatched, a truth in the reference', () => {
    const again = scenarioSet({ seed: SEED, rowsPerScenario: 400 });
    assert.deepEqual(JSON.parse(JSON.stringify(again.partners)), JSON.parse(JSON.stringify(set.partners)));
    assert.deepEqual(
      [...again.truth].map(([id, truth]) => [id, [...truth]]),
      [...set.truth].map(([id, truth]) => [id, [...truth]]),
    );
    assert.equal(new Set(set.partners.map((row) => row.id)).size, set.partners.length);
    assert.equal(referenceById.size, set.reference.length);
    for (const row of set.partners) {
      const about = set.rows.get(row.id);
      assert.ok(about, row.id);
      const truth = set.truth.get(row.id);
      const staysUnmatched = about.case === OUTLET_MISSING || about.case === PARENT_ABSENT;
      assert.equal(truth === undefined, staysUnmatched, `${row.id} (${about.case})`);
      for (const id of truth ?? []) assert.ok(referenceById.has(id), `${row.id}: ${id}`);
    }
    const scenarios = new Set([...set.rows.values()].map((about) => about.scenario));
    assert.deepEqual(scenarios, new Set([DENSE_CHAINS, SUB_PLACES]));
    assert.ok(chainRows.length >= 400);
  });

  it('gives chain rows a pin and no address, drifted at most about 120 m from their outlet, whose outlets stand at least 80 m apart', () => {
    for (const row of chainRows) {
      assert.equal(row.address, undefined, row.id);
      assert.ok(Number.isFinite(row.lat) && Number.isFinite(row.lon), row.id);
      const about = set.rows.get(row.id)!;
      const truth = [...(set.truth.get(row.id) ?? [])].map((id) => referenceById.get(id)!)[0];
      if (truth && about.case !== EQUIDISTANT)
        assert.ok(metresBetween(row, truth) <= 120.5 + slack(120), `${row.id}: ${metresBetween(row, truth)} m`);
    }
    for (const outlets of outletsOfCluster.values()) {
      for (const outlet of outlets) {
        const nearest = Math.min(...outlets.filter((other) => other !== outlet).map((other) => metresBetween(outlet, other)));
        if (outlets.length > 1) assert.ok(nearest >= 80 - slack(80), `${outlet.id}: nearest outlet ${nearest} m`);
      }
    }
  });

  it('counts a chain row apart when its pin is nearer another outlet than its own, and says whether the pin decides it (typical drift 60 m)', () => {
    const seen = new Map<string, number>();
    for (const row of chainRows) {
      const about = set.rows.get(row.id)!;
      seen.set(about.case, (seen.get(about.case) ?? 0) + 1);
      if (about.case === OUTLET_MISSING) {
        assert.equal(about.pinOnly!.nearestIsTruth, false, row.id);
        assert.ok(about.pinOnly!.nearestChance >= 0 && about.pinOnly!.nearestChance <= 1, row.id);
      }
      if (about.case !== OUTLET && about.case !== OUTLET_PIN_NEARER_ANOTHER) continue;
      const truth = referenceById.get([...set.truth.get(row.id)!][0]!)!;
      const byDistance = outletsOfCluster
        .get(`${truth.chain}|${truth.city}`)!
        .map((outlet) => ({ outlet, metres: metresBetween(row, outlet) }))
        .sort((a, b) => a.metres - b.metres);
      const own = byDistance.find(({ outlet }) => outlet === truth)!;
      const nearestOther = byDistance.find(({ outlet }) => outlet !== truth);
      // Only where the flat and the spherical distances cannot disagree.
      const clear = (a: number, b: number) => Math.abs(a - b) > slack(Math.max(a, b));
      if (about.case === OUTLET_PIN_NEARER_ANOTHER) {
        assert.equal(about.apart, true);
        if (clear(own.metres, nearestOther!.metres)) assert.ok(nearestOther!.metres < own.metres, row.id);
        continue;
      }
      assert.ok(!about.apart, row.id);
      if (nearestOther && clear(own.metres, nearestOther.metres)) assert.ok(own.metres < nearestOther.metres, row.id);
      if (nearestOther && clear(nearestOther.metres - own.metres, 60))
        assert.equal(about.pinDecides, nearestOther.metres - own.metres > 60, row.id);
      assert.equal(about.pinOnly!.nearestIsTruth, true, row.id);
      assert.ok(about.pinOnly!.nearestChance > 0 && about.pinOnly!.nearestChance <= 1, row.id);
    }
    for (const chainCase of [OUTLET, OUTLET_MISSING, OUTLET_PIN_NEARER_ANOTHER, EQUIDISTANT])
      assert.ok((seen.get(chainCase) ?? 0) > 0, chainCase);
  });
});

describe('bench:mapping scores and ceiling', () => {
  const result = (partnerHotelId: string, status: MappingResult['status'], referenceHotelId: string | null) =>
    ({ partnerHotelId, status, referenceHotelId }) as MappingResult;

  it('counts precision over MATCHED rows and recall over rows with a truth; a REVIEW row with the right hotel is not a match', () => {
    const truth = new Map([
      ['a', new Set(['A'])],
      ['b', new Set(['B'])],
      ['c', new Set(['C'])],
      ['d', new Set(['D'])],
    ]);
    const metrics = scoreMatches(
      [
        result('a', 'MATCHED', 'A'),
        result('b', 'MATCHED', 'X'),
        result('c', 'REVIEW', 'C'),
        result('d', 'UNMATCHED', null),
        result('e', 'MATCHED', 'E'),
        result('f', 'UNMATCHED', null),
      ],
      (id) => truth.get(id),
    );
    assert.deepEqual(
      {
        matched: metrics.matched,
        correct: metrics.correct,
        review: metrics.review,
        reviewCorrect: metrics.reviewCorrect,
        labelled: metrics.labelled,
        labelledReview: metrics.labelledReview,
      },
      { matched: 3, correct: 1, review: 1, reviewCorrect: 1, labelled: 4, labelledReview: 1 },
    );
    assert.equal(metrics.precision, 1 / 3);
    assert.equal(metrics.recall, 1 / 4);
    assert.equal(metrics.f1, (2 * (1 / 3) * (1 / 4)) / (1 / 3 + 1 / 4));
  });

  it("prints per scenario the engine's scores and the pin-only ceiling: at the cut with the best F1 and at the engine's bar", () => {
    const chainRow = (nearestChance: number, nearestIsTruth: boolean): ScenarioRow => ({
      scenario: DENSE_CHAINS,
      case: OUTLET,
      pinDecides: true,
      pinOnly: { nearestChance, nearestIsTruth },
    });
    const rows = new Map<string, ScenarioRow>([
      ['r1', chainRow(0.9, true)],
      ['r2', { ...chainRow(0.8, false), case: OUTLET_MISSING }],
      ['r3', chainRow(0.5, true)],
      ['r4', chainRow(0.2, false)],
      ['apart', { scenario: DENSE_CHAINS, case: OUTLET_PIN_NEARER_ANOTHER, apart: true }],
    ]);
    const truth = new Map([
      ['r1', new Set(['O1'])],
      ['r3', new Set(['O3'])],
      ['r4', new Set(['O4'])],
      ['apart', new Set(['O5'])],
    ]);
    const results = [
      result('r1', 'MATCHED', 'O1'),
      result('r2', 'MATCHED', 'O1'),
      result('r3', 'REVIEW', 'O3'),
      result('r4', 'MATCHED', 'O4'),
      result('apart', 'MATCHED', 'O9'),
    ];
    const lines = scenarioReport(results, rows, truth, 0.75);
    // Counted: r1-r4 (3 with a truth); the engine matched r1 and r4 right, r2 wrong.
    assert.equal(
      lines[0],
      `${DENSE_CHAINS}: 4 rows (3 with a true match): precision 0.6667  recall 0.6667  F1 0.6667; truly matching rows ended REVIEW 33.3 %`,
    );
    // By chance: 0.9 right, 0.8 wrong, 0.5 right (best: 2 of 3 matched right, 2 of 3 found), 0.2 wrong; at 0.75, r1 and r2.
    assert.equal(
      lines[2],
      "    best any engine can do from the pin alone, knowing how pins drift here: precision 0.6667  recall 0.6667  F1 0.6667 (matching from a chance of 0.50); matching from 0.75, the engine's bar: precision 0.5000  recall 0.3333  F1 0.4000",
    );
    assert.ok(
      lines.includes(`${OUTLET_PIN_NEARER_ANOTHER}: 1 rows: MATCHED 1 (right 0), REVIEW 0 (right candidate 0), UNMATCHED 0`),
      lines.join('\n'),
    );
  });
});
