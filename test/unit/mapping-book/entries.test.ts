import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { distanceMeters } from '../../../shared/mapping';
import {
  applyDecision,
  applyJobRow,
  applyMerge,
  applyRemap,
  applyRemoval,
  applyHotelChange,
  applyWithdrawal,
  HISTORY_LINES,
  materialChange,
  OWN_SOURCE,
  type BookEntry,
  type JobRow,
  type PartnerFacts,
  type StandingDecision,
} from '../../../shared/mapping-book/entries';
import { hotelKeys, NEAR_NEW_HOTEL_METERS, placeKeysNear, referenceKeys } from '../../../shared/mapping-book/keys';

const AT = ['2026-11-01T10:00:00.000Z', '2026-11-02T10:00:00.000Z', '2026-12-01T10:00:00.000Z', '2026-12-02T10:00:00.000Z'] as const;
const HOTEL_A = '11111111-1111-4111-8111-111111111111';
const HOTEL_B = '22222222-2222-4222-8222-222222222222';

const facts: PartnerFacts = {
  name: 'Hôtel du Louvre',
  address: '1 Place André Malraux',
  postalCode: '75001',
  city: 'Paris',
  country: 'FR',
  latitude: 48.8635,
  longitude: 2.3359,
};

function row(overrides: Partial<JobRow> = {}): JobRow {
  return {
    partnerHotelId: 'H-1',
    source: OWN_SOURCE,
    partner: facts,
    status: 'MATCHED',
    method: 'FUZZY',
    referenceHotelId: HOTEL_A,
    referenceHotelName: 'Hotel du Louvre',
    score: 0.97,
    evidence: null,
    candidates: [],
    ...overrides,
  };
}

const decision = (overrides: Partial<StandingDecision> = {}): StandingDecision => ({
  decision: 'MATCH',
  referenceHotelId: HOTEL_B,
  referenceHotelName: 'Louvre Hotel Annex',
  decidedBy: 'key-1',
  decidedAt: AT[1],
  partner: facts,
  ...overrides,
});

/** An entry a first job wrote, then a person decided. */
function decided(by: StandingDecision = decision()): BookEntry {
  const first = applyJobRow(undefined, row({ status: 'REVIEW', score: 0.6 }), AT[0], 'job-1', AT[0]).entry;
  return applyDecision(first, by, { kind: 'REVIEW', decidedBy: by.decidedBy }).entry;
}

describe('materialChange', () => {
  it('ignores case, accents, punctuation, spacing and a pin nudged less than 150 m', () => {
    const cosmetic: PartnerFacts = {
      ...facts,
      name: 'HOTEL  DU LOUVRE!',
      address: '1, place Andre-Malraux',
      latitude: 48.8644,
      longitude: 2.3359,
    };
    assert.equal(materialChange(facts, cosmetic), undefined);
  });

  it('names each field that changed, with its values, and how far the pin moved', () => {
    assert.equal(materialChange(facts, { ...facts, address: '3 Rue de Rivoli' }), 'address "1 Place André Malraux" -> "3 Rue de Rivoli"');
    assert.equal(materialChange(facts, { ...facts, name: 'Louvre Suites' }), 'name "Hôtel du Louvre" -> "Louvre Suites"');
    assert.equal(materialChange(facts, { ...facts, postalCode: undefined }), 'postalCode "75001" -> none');
    assert.equal(materialChange(facts, { ...facts, latitude: 48.8665 }), 'moved 334 m');
    assert.equal(materialChange(facts, { ...facts, latitude: undefined, longitude: undefined }), 'coordinates removed');
    assert.equal(materialChange({ ...facts, latitude: undefined }, facts), 'coordinates added');
  });
});

describe('applyJobRow', () => {
  it('a partner id the book does not hold is NEW, with the engine answer and a first history line', () => {
    const { entry, change } = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]);
    assert.equal(change, 'NEW');
    assert.equal(entry.status, 'MATCHED');
    assert.equal(entry.method, 'FUZZY');
    assert.equal(entry.referenceHotelId, HOTEL_A);
    assert.deepEqual(entry.cause, { kind: 'JOB', mappingJobId: 'job-1' });
    assert.deepEqual(
      entry.history.map((line) => [line.change, line.status, line.at]),
      [['NEW', 'MATCHED', AT[0]]],
    );
  });

  it('the same hotel and status again is unchanged: no change, the latest score and facts kept, the change time left as it was', () => {
    const first = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    const { entry, change } = applyJobRow(
      first,
      row({ score: 0.91, partner: { ...facts, name: 'Hotel du Louvre' } }),
      AT[2],
      'job-2',
      AT[2],
    );
    assert.equal(change, undefined);
    assert.equal(entry.score, 0.91);
    assert.equal(entry.partner.name, 'Hotel du Louvre');
    assert.equal(entry.changedAt, AT[0]);
    assert.equal(entry.history.length, 1);
  });

  it('another hotel or status is UPDATED with a reason that says what changed', () => {
    const first = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    const { entry, change } = applyJobRow(
      first,
      row({ status: 'REVIEW', referenceHotelId: HOTEL_B, score: 0.55, reason: 'two hotels of the chain' }),
      AT[2],
      'job-2',
      AT[2],
    );
    assert.equal(change, 'UPDATED');
    assert.equal(entry.status, 'REVIEW');
    assert.equal(entry.reason, `The engine now says REVIEW ${HOTEL_B} (was MATCHED ${HOTEL_A}): two hotels of the chain`);
    assert.deepEqual(
      entry.history.map((line) => line.change),
      ['NEW', 'UPDATED'],
    );
  });

  it('keeps a MANUAL entry as decided and records the engine answer beside it', () => {
    const manual = decided();
    const { entry, change } = applyJobRow(
      manual,
      row({ referenceHotelId: HOTEL_A, score: 0.99, partner: { ...facts, name: 'HOTEL DU LOUVRE' } }),
      AT[2],
      'job-2',
      AT[2],
    );
    assert.equal(change, undefined);
    assert.equal(entry.method, 'MANUAL');
    assert.equal(entry.status, 'MATCHED');
    assert.equal(entry.referenceHotelId, HOTEL_B);
    assert.equal(entry.score, 1);
    assert.deepEqual([entry.engine.referenceHotelId, entry.engine.score], [HOTEL_A, 0.99]);
    assert.equal(entry.changedAt, AT[1]);
  });

  it('keeps a NO_MATCH decision as UNMATCHED, score 0', () => {
    const { entry, change } = applyJobRow(
      decided(decision({ decision: 'NO_MATCH', referenceHotelId: null, referenceHotelName: null })),
      row(),
      AT[2],
      'job-2',
      AT[2],
    );
    assert.equal(change, undefined);
    assert.deepEqual([entry.status, entry.method, entry.referenceHotelId, entry.score], ['UNMATCHED', 'MANUAL', null, 0]);
  });

  it('sends a MANUAL entry back to REVIEW when the partner hotel changed materially, showing the decision it had', () => {
    const moved = { ...facts, address: '3 Rue de Rivoli' };
    const { entry, change } = applyJobRow(decided(), row({ partner: moved }), AT[2], 'job-2', AT[2]);
    assert.equal(change, 'UPDATED');
    assert.equal(entry.status, 'REVIEW');
    assert.equal(entry.method, 'FUZZY');
    assert.equal(entry.referenceHotelId, HOTEL_A);
    assert.equal(entry.decision?.referenceHotelId, HOTEL_B);
    assert.equal(
      entry.reason,
      `The partner's hotel changed since the decision of 2026-11-02 (address "1 Place André Malraux" -> "3 Rue de Rivoli"): review it again. ` +
        `The engine now says MATCHED ${HOTEL_A}; the decision was MATCH ${HOTEL_B}.`,
    );
    // Until a person decides again, a later job with the same answer leaves it, reason and all.
    const again = applyJobRow(entry, row({ partner: moved }), AT[3], 'job-3', AT[3]);
    assert.equal(again.change, undefined);
    assert.equal(again.entry.reason, entry.reason);
    assert.equal(again.entry.decision?.referenceHotelId, HOTEL_B);
  });
});

describe('the order of inventories', () => {
  it('an older inventory written after a newer one changes nothing the newer one said, and keeps when it was listed', () => {
    const newer = applyJobRow(undefined, row(), AT[3], 'job-newer', AT[2]).entry;
    assert.equal(newer.listedAt, AT[2]);
    const olderRow = applyJobRow(
      newer,
      row({ referenceHotelId: HOTEL_B, partner: { ...facts, name: 'Another Hotel' } }),
      AT[3],
      'job-older',
      AT[1],
    );
    assert.deepEqual(olderRow, { entry: newer });
    assert.deepEqual(applyRemoval(newer, AT[3], 'job-older', AT[1]), { entry: newer });
    // The same inventory again, or a newer one, applies.
    assert.equal(applyJobRow(newer, row({ referenceHotelId: HOTEL_B }), AT[3], 'job-again', AT[2]).change, 'UPDATED');
    const ended = applyRemoval(newer, AT[3], 'job-newest', AT[3]);
    assert.deepEqual([ended.change, ended.entry.listedAt], ['DELETED', AT[3]]);
  });

  it("a person's decision, a merge and a publication keep when the entry was listed", () => {
    const listed = decided();
    assert.equal(listed.listedAt, AT[0]);
    assert.equal(
      applyMerge(listed, { hotelId: HOTEL_B, mergedInto: HOTEL_A, mergedIntoName: 'Hotel du Louvre' }, AT[2], 'pub-2').entry.listedAt,
      AT[0],
    );
    const answer = {
      status: 'MATCHED' as const,
      method: 'FUZZY' as const,
      referenceHotelId: HOTEL_A,
      referenceHotelName: 'Hotel du Louvre',
      score: 0.9,
      evidence: null,
      candidates: [],
    };
    assert.equal(applyRemap(listed, answer, AT[2], 'pub-2', { kind: 'GONE', hotelId: HOTEL_B }).entry.listedAt, AT[0]);
  });
});

describe('applyRemoval and a return', () => {
  it('ends an entry as DELETED once, keeping its decision and history', () => {
    const ended = applyRemoval(decided(), AT[2], 'job-2', AT[2]);
    assert.equal(ended.change, 'DELETED');
    assert.equal(ended.entry.status, 'DELETED');
    assert.equal(ended.entry.decision?.referenceHotelId, HOTEL_B);
    assert.equal(applyRemoval(ended.entry, AT[3], 'job-3', AT[3]).change, undefined);
  });

  it('an ended entry listed again is NEW: under its decision when the hotel is the same, from the engine otherwise', () => {
    const ended = applyRemoval(decided(), AT[2], 'job-2', AT[2]).entry;
    const back = applyJobRow(ended, row(), AT[3], 'job-3', AT[3]);
    assert.equal(back.change, 'NEW');
    assert.deepEqual([back.entry.status, back.entry.method, back.entry.referenceHotelId], ['MATCHED', 'MANUAL', HOTEL_B]);
    const engineEnded = applyRemoval(applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry, AT[2], 'job-2', AT[2]).entry;
    const engineBack = applyJobRow(
      engineEnded,
      row({ status: 'UNMATCHED', method: null, referenceHotelId: null, score: 0.02 }),
      AT[3],
      'job-3',
      AT[3],
    );
    assert.equal(engineBack.change, 'NEW');
    assert.deepEqual([engineBack.entry.status, engineBack.entry.method], ['UNMATCHED', null]);
  });
});

describe('applyDecision', () => {
  it('makes the entry MANUAL with the decision, UPDATED, whatever the engine said', () => {
    const { entry, change } = applyDecision(applyJobRow(undefined, row({ status: 'REVIEW' }), AT[0], 'job-1', AT[0]).entry, decision(), {
      kind: 'REVIEW',
      decidedBy: 'key-1',
    });
    assert.equal(change, 'UPDATED');
    assert.deepEqual(
      [entry.status, entry.method, entry.referenceHotelId, entry.score, entry.changedAt],
      ['MATCHED', 'MANUAL', HOTEL_B, 1, AT[1]],
    );
    assert.equal(entry.reason, `Decided by a person: MATCH ${HOTEL_B}`);
  });

  it('keeps the latest history lines only', () => {
    let entry = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    for (let i = 0; i < HISTORY_LINES + 5; i++) {
      entry = applyDecision(
        entry,
        decision({ decision: i % 2 ? 'MATCH' : 'NO_MATCH', decidedAt: `2026-11-${String(3 + i).padStart(2, '0')}T00:00:00.000Z` }),
        { kind: 'REVIEW', decidedBy: 'key-1' },
      ).entry;
    }
    assert.equal(entry.history.length, HISTORY_LINES);
    assert.equal(entry.history.at(-1)!.at, '2026-11-27T00:00:00.000Z');
  });
});

describe('applyWithdrawal', () => {
  const cause = { kind: 'REVIEW', decidedBy: 'key-2' } as const;

  it("takes the decision back: the engine's answer again, UPDATED, with a history line", () => {
    const { entry, change } = applyWithdrawal(decided(), { withdrawnDecidedAt: AT[1], decidedBy: 'key-2', decidedAt: AT[2] }, cause);
    assert.equal(change, 'UPDATED');
    assert.equal(entry.decision, undefined);
    assert.deepEqual(
      [entry.status, entry.method, entry.referenceHotelId, entry.score, entry.changedAt],
      ['REVIEW', 'FUZZY', HOTEL_A, 0.6, AT[2]],
    );
    assert.equal(entry.reason, "Decision withdrawn: the engine's answer stands");
    assert.deepEqual(
      entry.history.map((line) => [line.change, line.method]),
      [
        ['NEW', 'FUZZY'],
        ['UPDATED', 'MANUAL'],
        ['UPDATED', 'FUZZY'],
      ],
    );
  });

  it('leaves an entry whose standing decision is another (a later one) as it is', () => {
    const later = applyDecision(decided(), decision({ decision: 'NO_MATCH', decidedAt: AT[2] }), cause).entry;
    const { entry, change } = applyWithdrawal(later, { withdrawnDecidedAt: AT[1], decidedBy: 'key-2', decidedAt: AT[3] }, cause);
    assert.equal(change, undefined);
    assert.equal(entry, later);
  });

  it('keeps a DELETED entry DELETED', () => {
    const removed = applyRemoval(decided(), AT[2], 'job-2', AT[2]).entry;
    const { entry } = applyWithdrawal(removed, { withdrawnDecidedAt: AT[1], decidedBy: 'key-2', decidedAt: AT[3] }, cause);
    assert.deepEqual([entry.status, entry.method, entry.decision], ['DELETED', 'FUZZY', undefined]);
  });
});

describe('an entry sent back to REVIEW', () => {
  it('stays in REVIEW with its decision shown when the engine changes its mind, until a person decides', () => {
    const sentBack = applyJobRow(decided(), row({ partner: { ...facts, name: 'Louvre Suites' } }), AT[2], 'job-2', AT[2]).entry;
    const { entry, change } = applyJobRow(
      sentBack,
      row({ partner: { ...facts, name: 'Louvre Suites' }, referenceHotelId: HOTEL_B }),
      AT[3],
      'job-3',
      AT[3],
    );
    assert.equal(change, 'UPDATED');
    assert.deepEqual([entry.status, entry.referenceHotelId, entry.decision?.decidedAt], ['REVIEW', HOTEL_B, AT[1]]);
    const redecided = applyDecision(entry, decision({ decidedAt: AT[3], partner: { ...facts, name: 'Louvre Suites' } }), {
      kind: 'REVIEW',
      decidedBy: 'key-1',
    }).entry;
    assert.deepEqual([redecided.status, redecided.method], ['MATCHED', 'MANUAL']);
  });
});

describe('found by review', () => {
  it('an entry waiting for review that ends and returns still waits for it, its decision shown', () => {
    const sentBack = applyJobRow(decided(), row({ partner: { ...facts, name: 'Louvre Suites' } }), AT[2], 'job-2', AT[2]).entry;
    const ended = applyRemoval(sentBack, AT[3], 'job-3', AT[3]).entry;
    const { entry, change } = applyJobRow(ended, row({ partner: { ...facts, name: 'Louvre Suites' } }), AT[3], 'job-4', AT[3]);
    assert.equal(change, 'NEW');
    assert.deepEqual([entry.status, entry.decision?.referenceHotelId], ['REVIEW', HOTEL_B]);
  });

  it('a decision on an entry new to the book is NEW in the feed', () => {
    const fresh = applyJobRow(undefined, row({ status: 'REVIEW' }), AT[0], 'job-1', AT[0]).entry;
    assert.equal(applyDecision(fresh, decision(), { kind: 'REVIEW', decidedBy: 'key-1' }, true).change, 'NEW');
  });
});

describe('following the reference', () => {
  const HOTEL_C = '33333333-3333-4333-8333-333333333333';
  const merge = { hotelId: HOTEL_B, mergedInto: HOTEL_C, mergedIntoName: 'Louvre Grand' };
  const unmatched = (partner: PartnerFacts = facts) =>
    applyJobRow(
      undefined,
      row({ partner, status: 'UNMATCHED', method: null, referenceHotelId: null, referenceHotelName: null, score: 0.1 }),
      AT[0],
      'job-1',
      AT[0],
    ).entry;
  const answer = (referenceHotelId: string | null) => ({
    ...row({
      referenceHotelId,
      referenceHotelName: referenceHotelId && 'Found',
      status: referenceHotelId ? ('MATCHED' as const) : ('UNMATCHED' as const),
      method: referenceHotelId ? ('FUZZY' as const) : null,
    }),
  });

  it('finds an entry by each hotel it points at, and an UNMATCHED one with a pin by its place; an ended one by nothing', () => {
    assert.deepEqual(referenceKeys(decided()).sort(), hotelKeys([HOTEL_B]));
    const sentBack = applyJobRow(decided(), row({ partner: { ...facts, name: 'Louvre Suites' } }), AT[2], 'job-2', AT[2]).entry;
    assert.deepEqual(referenceKeys(sentBack).sort(), hotelKeys([HOTEL_A, HOTEL_B]).sort(), 'the engine hotel and the decision shown');
    const [place] = referenceKeys(unmatched());
    assert.ok(placeKeysNear(facts.latitude!, facts.longitude!).includes(place!), 'its own place is near it');
    assert.deepEqual(referenceKeys(unmatched({ name: 'No pin' })), []);
    assert.deepEqual(referenceKeys(applyRemoval(decided(), AT[2], 'job-2', AT[2]).entry), []);
  });

  it(`counts as near every place within ${NEAR_NEW_HOTEL_METERS} m, east-west too, far from the equator`, () => {
    for (const [lat, lon] of [
      [0.001, 0.001],
      [48.8635, 2.3359],
      [69.65, 18.95],
    ] as const) {
      const near = new Set(placeKeysNear(lat, lon));
      for (const bearing of [0, 90, 180, 270]) {
        const radians = (bearing * Math.PI) / 180;
        const meters = NEAR_NEW_HOTEL_METERS * 0.99;
        const there = {
          latitude: lat + (meters * Math.cos(radians)) / 111_320,
          longitude: lon + (meters * Math.sin(radians)) / (111_320 * Math.cos((lat * Math.PI) / 180)),
        };
        assert.ok(distanceMeters(lat, lon, there.latitude, there.longitude) < NEAR_NEW_HOTEL_METERS);
        assert.ok(near.has(referenceKeys(unmatched({ ...facts, ...there }))[0]!), `${lat},${lon} bearing ${bearing}`);
      }
    }
  });

  it('moves an entry and its decision off a merged duplicate, status and method kept, with the reason', () => {
    const { entry, change } = applyMerge(decided(), merge, AT[2], 'pub-2');
    assert.equal(change, 'UPDATED');
    assert.deepEqual(
      [entry.status, entry.method, entry.referenceHotelId, entry.referenceHotelName, entry.decision?.referenceHotelId],
      ['MATCHED', 'MANUAL', HOTEL_C, 'Louvre Grand', HOTEL_C],
    );
    assert.deepEqual(entry.cause, { kind: 'MERGE', mergedHotelId: HOTEL_B, mergedInto: HOTEL_C, referenceVersionId: 'pub-2' });
    assert.match(entry.reason, /was merged into 3333/);
    assert.equal(applyMerge(unmatched(), merge, AT[2], 'pub-2').change, undefined, 'an entry elsewhere is left as it is');
  });

  it("sends a person's decision for a hotel that left back to REVIEW, shown; an engine's entry takes the engine's new answer", () => {
    const review = applyRemap(decided(), answer(HOTEL_C), AT[2], 'pub-2', { kind: 'GONE', hotelId: HOTEL_B });
    assert.deepEqual(
      [review.change, review.entry.status, review.entry.referenceHotelId, review.entry.decision?.referenceHotelId],
      ['UPDATED', 'REVIEW', HOTEL_C, HOTEL_B],
    );
    assert.match(review.entry.reason, /The hotel of the decision, 2222.*left the reference: review it again/);
    const engine = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    const remapped = applyRemap(engine, answer(null), AT[2], 'pub-2', { kind: 'GONE', hotelId: HOTEL_A });
    assert.deepEqual(
      [remapped.change, remapped.entry.status, remapped.entry.method, remapped.entry.referenceHotelId],
      ['UPDATED', 'UNMATCHED', null, null],
    );
    assert.deepEqual(remapped.entry.cause, { kind: 'PUBLICATION', referenceVersionId: 'pub-2' });
  });

  it('changes an UNMATCHED entry tried again only when the engine now finds a hotel; a NO_MATCH decision stands', () => {
    assert.equal(applyRemap(unmatched(), answer(null), AT[2], 'pub-2', { kind: 'NEAR_NEW' }).change, undefined);
    const found = applyRemap(unmatched(), answer(HOTEL_C), AT[2], 'pub-2', { kind: 'NEAR_NEW' });
    assert.deepEqual([found.change, found.entry.status, found.entry.referenceHotelId], ['UPDATED', 'MATCHED', HOTEL_C]);
    assert.match(found.entry.reason, /Tried again against hotels new near it/);
    const noMatch = decided(decision({ decision: 'NO_MATCH', referenceHotelId: null, referenceHotelName: null }));
    assert.equal(applyRemap(noMatch, answer(HOTEL_C), AT[2], 'pub-2', { kind: 'NEAR_NEW' }).change, undefined);
  });
});

describe('applyHotelChange and a moved hotel', () => {
  it("shows a renamed hotel's new name on the entry, its decision, the engine's answer and the candidates; another hotel's entry is left as it is", () => {
    const engine = applyJobRow(
      undefined,
      row({
        candidates: [
          { referenceHotelId: HOTEL_A, referenceHotelName: 'Hotel du Louvre', score: 0.9, nameSimilarity: 1, distanceMeters: 5 },
        ],
      }),
      AT[0],
      'job-1',
      AT[0],
    ).entry;
    const { entry, change } = applyHotelChange(engine, { hotelId: HOTEL_A, name: 'Hôtel du Louvre Paris' }, AT[2], 'pub-2');
    assert.equal(change, 'UPDATED');
    assert.deepEqual(
      [entry.referenceHotelName, entry.engine.referenceHotelName, entry.candidates[0]!.referenceHotelName],
      ['Hôtel du Louvre Paris', 'Hôtel du Louvre Paris', 'Hôtel du Louvre Paris'],
    );
    assert.equal(entry.reason, `The reference hotel ${HOTEL_A} is now named "Hôtel du Louvre Paris" (was "Hotel du Louvre")`);
    assert.deepEqual(entry.cause, { kind: 'PUBLICATION', referenceVersionId: 'pub-2' });
    const onDecision = applyHotelChange(decided(), { hotelId: HOTEL_B, name: 'Louvre Annex' }, AT[2], 'pub-2');
    assert.deepEqual(
      [onDecision.change, onDecision.entry.referenceHotelName, onDecision.entry.decision?.referenceHotelName],
      ['UPDATED', 'Louvre Annex', 'Louvre Annex'],
    );
    assert.deepEqual(applyHotelChange(engine, { hotelId: HOTEL_B, name: 'Louvre Annex' }, AT[2], 'pub-2'), { entry: engine });
    assert.equal(
      applyHotelChange(entry, { hotelId: HOTEL_A, name: 'Hôtel du Louvre Paris' }, AT[3], 'pub-3').change,
      undefined,
      'the same name again changes nothing',
    );
  });

  it('keeps the supplier codes and place of the hotel an entry points at current: a change, a merge, a decision and its withdrawal', () => {
    const factless = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    const filled = applyJobRow(factless, row({ supplierCodes: { HOTELBEDS: '1' }, referenceHotelCity: 'Paris' }), AT[1], 'job-2', AT[1]);
    assert.deepEqual(
      [filled.change, filled.entry.supplierCodes, filled.entry.referenceHotelCity],
      [undefined, { HOTELBEDS: '1' }, 'Paris'],
      "the same hotel again: its facts as the row's publication has them, no change to tell",
    );
    const HOTEL_SURVIVOR = '44444444-4444-4444-8444-444444444444';
    const engine = applyJobRow(
      undefined,
      row({ supplierCodes: { HOTELBEDS: '1' }, referenceHotelCity: 'Paris', referenceHotelCountryCode: 'FR' }),
      AT[0],
      'job-1',
      AT[0],
    ).entry;
    const recoded = applyHotelChange(
      engine,
      {
        hotelId: HOTEL_A,
        name: 'Hotel du Louvre',
        facts: { supplierCodes: { HOTELBEDS: '1', EXPEDIA: '9' }, referenceHotelCity: 'Paris', referenceHotelCountryCode: 'FR' },
      },
      AT[1],
      'pub-2',
    );
    assert.equal(recoded.change, 'UPDATED');
    assert.deepEqual(
      [recoded.entry.supplierCodes, recoded.entry.engine.supplierCodes],
      [
        { HOTELBEDS: '1', EXPEDIA: '9' },
        { HOTELBEDS: '1', EXPEDIA: '9' },
      ],
    );
    assert.equal(recoded.entry.reason, `The reference hotel ${HOTEL_A} has another place or other supplier codes`);
    const reordered = { supplierCodes: { EXPEDIA: '9', HOTELBEDS: '1' }, referenceHotelCity: 'Paris', referenceHotelCountryCode: 'FR' };
    assert.equal(
      applyHotelChange(recoded.entry, { hotelId: HOTEL_A, name: 'Hotel du Louvre', facts: reordered }, AT[2], 'pub-3').change,
      undefined,
      'the same codes in another order change nothing',
    );
    const unknownFacts = applyHotelChange(recoded.entry, { hotelId: HOTEL_A, name: 'Louvre' }, AT[2], 'pub-3');
    assert.deepEqual(
      unknownFacts.entry.supplierCodes,
      { HOTELBEDS: '1', EXPEDIA: '9' },
      'a change recorded without facts keeps the codes held',
    );

    const merged = applyMerge(
      recoded.entry,
      { hotelId: HOTEL_A, mergedInto: HOTEL_SURVIVOR, mergedIntoName: 'Louvre', mergedIntoFacts: { supplierCodes: { EXPEDIA: '7' } } },
      AT[2],
      'pub-3',
    ).entry;
    assert.deepEqual(
      [merged.referenceHotelId, merged.supplierCodes, merged.referenceHotelCity],
      [HOTEL_SURVIVOR, { EXPEDIA: '7' }, undefined],
      "the survivor's facts, none of the duplicate's",
    );

    const standing = decision({
      referenceHotelId: HOTEL_B,
      referenceHotelName: 'Louvre Annex',
      supplierCodes: { HOTELBEDS: '2' },
      decidedAt: AT[3],
    });
    const onDecision = applyDecision(recoded.entry, standing, { kind: 'REVIEW', decidedBy: 'key-1' }).entry;
    assert.deepEqual(
      [onDecision.referenceHotelId, onDecision.supplierCodes, onDecision.referenceHotelCity],
      [HOTEL_B, { HOTELBEDS: '2' }, undefined],
    );
    const withdrawn = applyWithdrawal(
      onDecision,
      { withdrawnDecidedAt: AT[3], decidedBy: 'key-1', decidedAt: '2026-12-03T10:00:00.000Z' },
      { kind: 'REVIEW', decidedBy: 'key-1' },
    ).entry;
    assert.deepEqual(
      [withdrawn.referenceHotelId, withdrawn.supplierCodes, withdrawn.referenceHotelCity],
      [HOTEL_A, { HOTELBEDS: '1', EXPEDIA: '9' }, 'Paris'],
    );
  });

  it("maps an engine's entry again when its hotel moved, changing it only when the answer changes; a person's decision stands", () => {
    const engine = applyJobRow(undefined, row(), AT[0], 'job-1', AT[0]).entry;
    const same = {
      status: 'MATCHED' as const,
      method: 'FUZZY' as const,
      referenceHotelId: HOTEL_A,
      referenceHotelName: 'Hotel du Louvre',
      score: 0.8,
      evidence: null,
      candidates: [],
    };
    assert.deepEqual(applyRemap(engine, same, AT[2], 'pub-2', { kind: 'MOVED', hotelId: HOTEL_A }), { entry: engine });
    const away = { ...same, status: 'UNMATCHED' as const, method: null, referenceHotelId: null, referenceHotelName: null, score: 0.1 };
    const moved = applyRemap(engine, away, AT[2], 'pub-2', { kind: 'MOVED', hotelId: HOTEL_A });
    assert.deepEqual([moved.change, moved.entry.status, moved.entry.listedAt], ['UPDATED', 'UNMATCHED', AT[0]]);
    assert.equal(
      moved.entry.reason,
      `The reference hotel ${HOTEL_A} moved: mapped again, the engine now says UNMATCHED (was MATCHED ${HOTEL_A})`,
    );
    assert.deepEqual(applyRemap(decided(), away, AT[2], 'pub-2', { kind: 'MOVED', hotelId: HOTEL_B }), { entry: decided() });
  });
});
