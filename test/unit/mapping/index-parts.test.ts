/**
 * The matching index built from parts, as `npm run map` builds it from a large reference file on two
 * threads (MatchingIndexBuilder.toPart on the worker, appendPart here, the namesake counts on the
 * worker through finishWith), must be the index built in one go: every snapshot property
 * deep-equal, the supplier-code lookup in the same order.
 */
import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { textAt } from '../../../shared/mapping/columns';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import type { MatchingIndex } from '../../../shared/mapping/matching-index';
import { buildMatchingIndex, MatchingIndexBuilder, type MatchingIndexPart } from '../../../shared/mapping/matching-index-builder';
import { namesakeCounts, type NamesakeInput } from '../../../shared/mapping/namesakes';

const handMade: ReferenceHotel[] = [
  // A NUL in a string: nothing separates a text column's values, so it is a character like any other.
  { id: 'nul-1', name: 'Hotel\u0000Zero', city: 'Paris', country: 'France', lat: 48.85, lon: 2.35, supplierCodes: { HB: 'n1' } },
  // Supplier codes differing only in case and spaces are one key: the last hotel keeps it.
  { id: 'case-1', name: 'Case One', countryCode: 'DE', supplierCodes: { ' hb ': ' 77 ', EXP: 'c1' } },
  { id: 'case-2', name: 'Case Two', country: 'Germany', lat: 52.5, lon: 13.4, rating: 4, supplierCodes: { HB: '77' } },
  // Nothing but the required fields.
  { id: 'bare', name: 'Bare', supplierCodes: {} },
];

const generated = [...generateReferenceHotels({ count: 3000, seed: 11 })];
// A supplier code used twice, far apart: the last hotel keeps it, at the first one's place in the lookup.
generated[2500] = { ...generated[2500]!, supplierCodes: { ...generated[2500]!.supplierCodes, ...generated[3]!.supplierCodes } };
const hotels = [...generated.slice(0, 1500), ...handMade, ...generated.slice(1500)];

const whole = buildMatchingIndex(hotels);

function builderOf(hotels: readonly ReferenceHotel[]): MatchingIndexBuilder {
  const builder = new MatchingIndexBuilder();
  for (const hotel of hotels) builder.add(hotel);
  return builder;
}

/** The part a worker sends: toPart, then across a thread (structured clone, buffers moved). */
function shipped(builder: MatchingIndexBuilder): MatchingIndexPart {
  const { part, transfer } = builder.toPart();
  return structuredClone(part, { transfer });
}

/** Fails naming the snapshot properties that differ. */
function assertSameIndex(expected: MatchingIndex, actual: MatchingIndex, context: string): void {
  const keys = Object.keys(expected.data) as (keyof MatchingIndex['data'])[];
  assert.deepEqual(Object.keys(actual.data).sort(), [...keys].sort(), context);
  // The supplier lookup is plain data: equal lookups hold their keys in the same order too.
  const differing = keys.filter((key) => !isDeepStrictEqual(expected.data[key], actual.data[key]));
  assert.deepEqual(differing, [], `${context}: ${differing.join(', ')} differ`);
}

describe('MatchingIndexBuilder in parts', () => {
  it('builds the index of buildMatchingIndex one hotel at a time', () => {
    assert.equal(whole.size, hotels.length);
    assertSameIndex(whole, builderOf(hotels).finish(), 'one builder');
  });

  it.each([0, 1, 1500, 1502, 2000, hotels.length - 1, hotels.length])('builds the same index from two parts split at hotel %i', (at) => {
    const first = builderOf(hotels.slice(0, at));
    const part = shipped(builderOf(hotels.slice(at)));
    assert.deepEqual(
      Array.from({ length: part.count }, (_, hotel) => textAt(part.ids, hotel)),
      hotels.slice(at).map((hotel) => hotel.id),
    );
    first.appendPart(part);
    assertSameIndex(whole, first.finish(), `split at ${at}`);
  });

  it('appends several parts in turn', () => {
    const first = builderOf(hotels.slice(0, 700));
    first.appendPart(shipped(builderOf(hotels.slice(700, 1501))));
    first.appendPart(shipped(builderOf(hotels.slice(1501, 1501))));
    first.appendPart(shipped(builderOf(hotels.slice(1501))));
    assertSameIndex(whole, first.finish(), 'three parts');
  });

  it('finishWith counting namesakes elsewhere gives the index of finish', async () => {
    const elsewhere: NamesakeInput[] = [];
    const index = await builderOf(hotels).finishWith(async (input) => {
      elsewhere.push(input);
      // As the CLI's worker gets it: a copy, across a thread.
      return namesakeCounts(structuredClone(input));
    });
    assert.equal(elsewhere.length, 1);
    assertSameIndex(whole, index, 'finishWith');
    assert.ok(
      index.data.namesakeCounts.some((count) => count > 1),
      'some names are shared',
    );
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('the worker stopped'))],
    [
      'throws',
      () => {
        throw new Error('the worker cannot be asked');
      },
    ],
    ['gives counts not one per hotel', () => Promise.resolve(new Uint16Array(3))],
  ])(
    'finishWith counts namesakes itself when counting elsewhere %s',
    async (_, countElsewhere: (input: NamesakeInput) => Promise<Uint16Array>) => {
      const first = builderOf(hotels.slice(0, 1600));
      first.appendPart(shipped(builderOf(hotels.slice(1600))));
      const index = await first.finishWith(countElsewhere);
      assertSameIndex(whole, index, 'finishWith, counting failed');
    },
  );

  it("turns the supplier-code lookup around: each hotel's codes, upper-case and trimmed, and its city as the reference first spells it", () => {
    const hotelOf = (id: string) =>
      Array.from({ length: whole.size }, (_, hotel) => hotel).find((hotel) => textAt(whole.data.ids, hotel) === id)!;
    assert.deepEqual(whole.supplierCodesOf(hotelOf('nul-1')), { HB: 'n1' });
    // case-1 and case-2 both claim HB 77: the lookup holds the later one.
    assert.deepEqual(whole.supplierCodesOf(hotelOf('case-1')), { EXP: 'c1' });
    assert.deepEqual(whole.supplierCodesOf(hotelOf('case-2')), { HB: '77' });
    assert.deepEqual(whole.supplierCodesOf(hotelOf('bare')), {});
    assert.deepEqual(whole.placeOf(hotelOf('nul-1')), { city: 'Paris', countryCode: 'FR' });
    assert.deepEqual(whole.placeOf(hotelOf('bare')), {});
  });

  it('refuses to be used again after toPart or finish', async () => {
    const parted = builderOf(hotels.slice(0, 10));
    parted.toPart();
    assert.throws(() => parted.add(hotels[10]!), /used up by toPart/);
    assert.throws(() => parted.toPart(), /used up by toPart/);
    assert.throws(() => parted.finish(), /used up by toPart/);
    await assert.rejects(
      parted.finishWith(async (input) => namesakeCounts(input)),
      /used up by toPart/,
    );
    const finished = builderOf(hotels.slice(0, 10));
    finished.finish();
    assert.throws(() => finished.add(hotels[10]!), /used up by finish/);
    assert.throws(() => finished.appendPart(shipped(builderOf(hotels.slice(10, 20)))), /used up by finish/);
  });
});
