/**
 * The synthetic mapping set of `bench:mapping` and `bench:jobs`: a deterministic reference of
 * generated hotels plus look-alikes, and damaged partner rows of which a tenth have no true match.
 * The reference is a stream (never all in memory); partner rows are drawn from a sample of it as
 * it passes, so `partners` and `truth` are complete once the stream has been read to the end.
 */
import type { PartnerHotel, ReferenceHotel } from '../../shared/mapping';
import { foldText } from '../../shared/platform/text';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { BenchRandom, damagedPartnerRow, lookAlikeHotel } from './partner-damage';

/** Partner rows describing hotels that are not in the reference. */
const NO_MATCH_SHARE = 0.1;
/** Matched partner hotels that get a same-chain look-alike a few hundred metres away. */
const LOOK_ALIKE_SHARE = 0.1;

export interface MappingDataset {
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
}

export const twinKey = (hotel: ReferenceHotel) => `${hotel.city ?? ''}|${foldText(hotel.name)}`;

export function mappingDataset(options: { referenceCount: number; partnerCount: number; seed: number; onProgress?: () => void }): MappingDataset {
  const { referenceCount, partnerCount, seed } = options;
  const random = new BenchRandom(seed);
  const matchedCount = Math.round(partnerCount * (1 - NO_MATCH_SHARE));
  const noMatchCount = partnerCount - matchedCount;
  const sampleProbability = matchedCount / referenceCount;
  const partners: PartnerHotel[] = [];
  const truth = new Map<string, ReadonlySet<string>>();
  const lookAlikeNameCounts = new Map<string, number>();
  const truthKeys = new Map<string, string>();

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
  }

  return {
    reference,
    partners,
    truth,
    lookAlikeNameCounts,
    truthKeys,
    shufflePartners() {
      for (let i = partners.length - 1; i > 0; i--) {
        const j = Math.floor(random.next() * (i + 1));
        [partners[i], partners[j]] = [partners[j]!, partners[i]!];
      }
    },
  };
}
