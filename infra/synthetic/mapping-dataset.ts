/**
 * The synthetic mapping set of `bench:mapping` and `bench:jobs`: a deterministic reference of
 * generated hotels plus look-alikes, and damaged partner rows of which a tenth have no true match.
 * The reference is a stream (never all in memory); partner rows are drawn from a sample of it as
 * it passes, so `partners` and `truth` are complete once the stream has been read to the end.
 * With `scenarios` (bench:mapping's hard cases, test/bench/mapping-scenarios.ts), their reference
 * records come after the base stream and their partner rows among the base rows.
 */
import type { PartnerHotel, ReferenceHotel } from '../../shared/mapping';
import { foldText } from '../../shared/platform/text';
import { generateReferenceHotels } from './generator';
import { BenchRandom, damagedPartnerRow, lookAlikeHotel } from './partner-damage';

/** Extra cases to mix in: their reference records, partner rows, truth, and what each row is. */
export interface ExtraCases<Row> {
  reference: ReferenceHotel[];
  partners: PartnerHotel[];
  truth: ReadonlyMap<string, ReadonlySet<string>>;
  rows: ReadonlyMap<string, Row>;
}

/** Partner rows describing hotels that are not in the reference. */
const NO_MATCH_SHARE = 0.1;
/** Matched partner hotels that get a same-chain look-alike a few hundred metres away. */
const LOOK_ALIKE_SHARE = 0.1;

export interface MappingDataset<Row = never> {
  /** Read it once, to the end: that also fills partners and truth. */
  reference(): Generator<ReferenceHotel>;
  partners: PartnerHotel[];
  /** Partner row id -> the reference hotel it truly is (rows without a match are absent). */
  truth: Map<string, ReadonlySet<string>>;
  /** (city, folded name) of each look-alike, and of each partner row's true hotel: for the twin analysis. */
  lookAlikeNameCounts: Map<string, number>;
  truthKeys: Map<string, string>;
  /** Shuffles the partner rows (after the reference was read), deterministically. */
  shufflePartners(): void;
  /** Scenario partner row id -> its scenario and case (empty without `scenarios`). */
  scenarioRows: ReadonlyMap<string, Row>;
  /** Reference records the scenarios add. */
  scenarioReferenceCount: number;
}

export const twinKey = (hotel: ReferenceHotel) => `${hotel.city ?? ''}|${foldText(hotel.name)}`;

export function mappingDataset<Row = never>(options: {
  referenceCount: number;
  partnerCount: number;
  seed: number;
  onProgress?: () => void;
  scenarios?: ExtraCases<Row>;
}): MappingDataset<Row> {
  const { referenceCount, partnerCount, seed } = options;
  const random = new BenchRandom(seed);
  const matchedCount = Math.round(partnerCount * (1 - NO_MATCH_SHARE));
  const noMatchCount = partnerCount - matchedCount;
  const sampleProbability = matchedCount / referenceCount;
  const partners: PartnerHotel[] = [];
  const truth = new Map<string, ReadonlySet<string>>();
  const lookAlikeNameCounts = new Map<string, number>();
  const truthKeys = new Map<string, string>();
  // Own random streams and ids: the base rows, their ids and their truth are the same with or without.
  const { scenarios } = options;
  for (const [partnerId, hotels] of scenarios?.truth ?? []) truth.set(partnerId, hotels);
  let baseCount = 0;

  function* reference(): Generator<ReferenceHotel> {
    let index = 0;
    let lookAlikes = 0;
    for (const hotel of generateReferenceHotels({ count: referenceCount + noMatchCount, seed })) {
      if (index++ >= referenceCount) {
        // Generated like the others but left out of the reference: these must come out unmatched.
        partners.push(damagedPartnerRow(random, hotel, `P-NONE-${partners.length}`));
        continue;
      }
      yield hotel;
      if (partners.length < matchedCount && random.chance(sampleProbability)) {
        const row = damagedPartnerRow(random, hotel, `P-${partners.length}`);
        partners.push(row);
        truth.set(row.id, new Set([hotel.id]));
        truthKeys.set(row.id, twinKey(hotel));
        if (random.chance(LOOK_ALIKE_SHARE)) {
          // A UUID, like every reference id (the reference import refuses others).
          const lookAlike = lookAlikeHotel(random, hotel, `00000000-0000-4000-8000-${String(lookAlikes++).padStart(12, '0')}`);
          lookAlikeNameCounts.set(twinKey(lookAlike), (lookAlikeNameCounts.get(twinKey(lookAlike)) ?? 0) + 1);
          yield lookAlike;
        }
      }
      if (index % 100_000 === 0) options.onProgress?.();
    }
    baseCount = partners.length;
    if (scenarios) {
      yield* scenarios.reference;
      for (const row of scenarios.partners) partners.push(row);
    }
  }

  return {
    reference,
    partners,
    truth,
    lookAlikeNameCounts,
    truthKeys,
    shufflePartners() {
      for (let i = baseCount - 1; i > 0; i--) {
        const j = Math.floor(random.next() * (i + 1));
        [partners[i], partners[j]] = [partners[j]!, partners[i]!];
      }
      if (partners.length === baseCount) return;
      // Scenario rows go to random places among the base rows, which keep their order (and the
      // base random stream its draws): the base rows are processed exactly as without scenarios.
      const scenarioRandom = new BenchRandom(seed ^ 0x2f6b5c31);
      const inserts = partners.slice(baseCount).map((row) => ({ row, before: Math.floor(scenarioRandom.next() * (baseCount + 1)) }));
      inserts.sort((a, b) => a.before - b.before);
      const base = partners.slice(0, baseCount);
      partners.length = 0;
      let next = 0;
      for (let i = 0; i <= base.length; i++) {
        while (next < inserts.length && inserts[next]!.before === i) partners.push(inserts[next++]!.row);
        if (i < base.length) partners.push(base[i]!);
      }
    },
    scenarioRows: scenarios?.rows ?? new Map(),
    scenarioReferenceCount: scenarios?.reference.length ?? 0,
  };
}
