/**
 * Blocking: the few reference hotels worth comparing in full with a partner row, found in widening
 * stages (name words near the pin, every hotel close by, the postcode, the city, the country), each
 * stage ending the search once a candidate is convincing on its own. Scratch state is reused
 * across rows, so the search allocates nothing per candidate.
 */
import { textEquals } from './columns';
import { scoreCandidate, type ScoredCandidate } from './candidate-evidence';
import type { PreparedPartner } from './partner-row';
import type { MatchingIndex } from './matching-index';
import { approximateDistanceMeters, signatureSimilarity, SIGNATURE_WORDS } from './similarity';

/** Radius searched around a partner's coordinates; supplier pins rarely drift further. */
const SEARCH_RADIUS_METERS = 1_000;
/** Radius of the every-hotel scan used when no nearby name shares a word (typos). */
const TYPO_SEARCH_RADIUS_METERS = 500;
/**
 * Evidence log-odds at which a lone candidate ends the search (odds of about 8 to 1): wider stages
 * could only add competitors that the evidence already rules out.
 */
const CONVINCING_LOG_ODDS = Math.log(0.75 / 0.25) + 1;
/** Candidates kept from blocking for full scoring. */
const SHORTLIST_SIZE = 8;
/** Shortlisted hotels whose blocking score trails the best by more than this are not scored in full. */
const SHORTLIST_SCORE_GAP = 0.5;
/** Blocking keeps a hotel only if its name looks at least this much like the partner's. */
const MIN_NAME_HINT = 0.25;
/** Word overlap above which trigram signatures add nothing to blocking. */
const CONFIDENT_NAME_HINT = 0.6;
/** How much nearness adds to a blocking score (names dominate). */
const PROXIMITY_BONUS = 0.3;
const SAME_CITY_BONUS = 0.1;
const SAME_DETAIL_BONUS = 0.2;
/** A word carried by more hotels than this (in the country / near the pin) does not find candidates. */
const MAX_POSTINGS_PER_WORD = 2_000;
const MAX_NEARBY_POSTINGS_PER_WORD = 50;
/**
 * Postings walked per name search (rarest words first; further words only add weight to the
 * candidates found): in the partner's city or country, for partners without and with a pin.
 */
const MAX_CITY_POSTINGS_PER_WORD = 1_000;
const MAX_CITY_POSTINGS_PINNED = 300;
const MAX_POSTINGS_PINNED = 500;
/** Postcode blocks bigger than this (a whole district) are left to the name search. */
const MAX_POSTAL_BLOCK = 2_000;
/** Within a shared postcode, a name this alike is worth full scoring. */
const MIN_POSTAL_NAME_HINT = 0.15;
/**
 * Blocking hint of a nearby hotel whose name holds every search word of the partner's
 * ("Caffè Nero Akadimias" for "Caffè Nero"): nearly an exact name's, so that among a chain's
 * outlets nearness, not the length of their names, decides which are scored.
 */
const CONTAINED_NAME_HINT = 0.9;
/** A nearby candidate this alike in name makes the typo scan around the pin pointless. */
const CONFIDENT_NAME_FOUND = 0.8;
/** A city-search candidate this alike in name, in the partner's city, ends the search there. */
const CITY_NAME_FOUND = 0.8;
/** The most that nearness and details add to a blocking score. */
const MAX_BLOCKING_BONUS = PROXIMITY_BONUS + SAME_CITY_BONUS + 2 * SAME_DETAIL_BONUS;
const RADIANS = Math.PI / 180;
const METERS_PER_DEGREE = 111_195;
/** Word postings longer than this (world-wide) are not searched near a pin when the name has a rarer word. */
const HUGE_POSTING_LIST = 20_000;
/** Posting ranges (grid cell rows) remembered per word between counting and walking. */
const RANGES_PER_WORD = 8;
/** Name words used for blocking (the first ones of a very long name). */
const MAX_SEARCH_WORDS = 16;

export class CandidateSearch {
  // Scratch state reused across rows so blocking does not allocate per candidate.
  private readonly visitedStamp: Uint32Array;
  private stamp = 0;
  private readonly accumulated: Float32Array;
  private readonly touched: number[] = [];
  private readonly shortlistHotels = new Int32Array(SHORTLIST_SIZE);
  private readonly shortlistScores = new Float64Array(SHORTLIST_SIZE);
  private shortlistCount = 0;
  private readonly range = new Uint32Array(2);
  private readonly ranges = new Uint32Array(128);
  private readonly wordCounts = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordOrder = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordRanges = new Uint32Array(MAX_SEARCH_WORDS * RANGES_PER_WORD * 2);
  private readonly wordRangeCounts = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordStarts = new Uint32Array(MAX_SEARCH_WORDS);
  private readonly wordEnds = new Uint32Array(MAX_SEARCH_WORDS);

  constructor(private readonly index: MatchingIndex) {
    this.visitedStamp = new Uint32Array(index.size);
    this.accumulated = new Float32Array(index.size);
  }

  /**
   * Blocking in widening stages, each stopping the search once a candidate is convincing on its
   * own: nearby hotels sharing a name word; then every hotel close by (typos leave no shared
   * word); then the whole country by name (no pin, or a pin far off). Returns the full-scored
   * candidates, best first.
   */
  find(partner: PreparedPartner): ScoredCandidate[] {
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.visitedStamp.fill(0);
      this.stamp = 1;
    }
    const scored: ScoredCandidate[] = [];
    const located = !Number.isNaN(partner.lat);
    if (located) {
      const countryId = partner.countryId || this.index.countryAt(partner.lat, partner.lon);
      if (countryId > 0) {
        this.collectByNameNearby(partner, countryId);
        if (this.scoreShortlist(partner, scored)) return scored;
      }
      // The every-hotel scan finds names that share no word with the partner's (typos, words
      // joined or split): worth it only when the name words found nothing alike.
      if (partner.hasUnknownWord || scored.length === 0 || scored[0]!.nameSimilarity < CONFIDENT_NAME_FOUND) {
        this.collectNearby(partner);
        if (this.scoreShortlist(partner, scored)) return scored;
      }
    }
    if (partner.postalCode !== '') {
      this.collectByPostalCode(partner);
      if (this.scoreShortlist(partner, scored)) return scored;
    }
    if (partner.cityId !== 0) {
      this.collectByName(partner, true);
      if (this.scoreShortlist(partner, scored)) return scored;
      // The partner's city holds a hotel of this name: namesakes in other cities are no better.
      for (const candidate of scored) if (candidate.nameSimilarity >= CITY_NAME_FOUND && candidate.cityMatch === true) return scored;
    }
    this.collectByName(partner, false);
    this.scoreShortlist(partner, scored);
    return scored;
  }

  /** Full-scores the shortlist into `scored` (kept best first) and empties it; true when the best is convincing alone. */
  private scoreShortlist(partner: PreparedPartner, scored: ScoredCandidate[]): boolean {
    // Blocking scores are a cheap preview of the full score: one far below the best rarely ends up
    // a competitor worth counting, so it is not scored in full.
    const floor = this.shortlistScores[0]! - SHORTLIST_SCORE_GAP;
    for (let k = 0; k < this.shortlistCount && this.shortlistScores[k]! >= floor; k++)
      scored.push(scoreCandidate(this.index, partner, this.shortlistHotels[k]!));
    this.shortlistCount = 0;
    scored.sort((a, b) => b.logOdds - a.logOdds);
    return scored.length > 0 && scored[0]!.logOdds >= CONVINCING_LOG_ODDS;
  }

  /**
   * Nearby hotels sharing a distinctive name word, from the word postings' cell-ordered ranges.
   * As in collectByName, only the rarer words find candidates.
   */
  private collectByNameNearby(partner: PreparedPartner, countryId: number): void {
    const { postingHotels, tokenWeights } = this.index.data;
    const ids = partner.searchTokenIds;
    const counts = this.wordCounts;
    const order = this.wordOrder;
    const wordCount = Math.min(ids.length, MAX_SEARCH_WORDS);
    const wordRanges = this.wordRanges;
    const { postingOffsets } = this.index.data;
    let smallestList = Infinity;
    for (let w = 0; w < wordCount; w++) smallestList = Math.min(smallestList, postingOffsets[ids[w]! + 1]! - postingOffsets[ids[w]!]!);
    for (let w = 0; w < wordCount; w++) {
      // A word on a huge list (a city name, a big chain) is never walked nearby when a rarer word
      // exists: skip the binary searches over its list and let it only add weight.
      if (postingOffsets[ids[w]! + 1]! - postingOffsets[ids[w]!]! > HUGE_POSTING_LIST && smallestList <= HUGE_POSTING_LIST) {
        counts[w] = 0x7fffffff;
        this.wordRangeCounts[w] = -1;
        let position = w;
        while (position > 0 && counts[order[position - 1]!]! > counts[w]!) {
          order[position] = order[position - 1]!;
          position -= 1;
        }
        order[position] = w;
        continue;
      }
      const rangeCount = this.index.postingRangesNearby(ids[w]!, countryId, partner.lat, partner.lon, SEARCH_RADIUS_METERS, this.ranges);
      let count = 0;
      for (let r = 0; r < rangeCount; r++) count += this.ranges[r * 2 + 1]! - this.ranges[r * 2]!;
      counts[w] = count;
      // Kept for the walk below (a 1 km search covers at most a few rows of grid cells).
      this.wordRangeCounts[w] = rangeCount <= RANGES_PER_WORD ? rangeCount : -1;
      if (rangeCount <= RANGES_PER_WORD) wordRanges.set(this.ranges.subarray(0, rangeCount * 2), w * RANGES_PER_WORD * 2);
      // Insertion by count: rarest word first.
      let position = w;
      while (position > 0 && counts[order[position - 1]!]! > count) {
        order[position] = order[position - 1]!;
        position -= 1;
      }
      order[position] = w;
    }
    const touched = this.touched;
    touched.length = 0;
    const accumulated = this.accumulated;
    let allWords = 0;
    for (let rank = 0; rank < wordCount; rank++) {
      const id = ids[order[rank]!]!;
      const weight = 2 * tokenWeights[id]!;
      allWords += weight;
      if (rank > 0 && counts[order[rank]!]! > MAX_NEARBY_POSTINGS_PER_WORD) {
        this.addToTouched(id, weight);
        continue;
      }
      const w = order[rank]!;
      let rangeCount = this.wordRangeCounts[w]!;
      let ranges = wordRanges.subarray(w * RANGES_PER_WORD * 2);
      if (rangeCount < 0) {
        rangeCount = this.index.postingRangesNearby(id, countryId, partner.lat, partner.lon, SEARCH_RADIUS_METERS, this.ranges);
        ranges = this.ranges;
      }
      for (let r = 0; r < rangeCount; r++) {
        for (let k = ranges[r * 2]!, end = ranges[r * 2 + 1]!; k < end; k++) {
          const hotel = postingHotels[k]!;
          if (accumulated[hotel] === 0) touched.push(hotel);
          accumulated[hotel]! += weight;
        }
      }
    }
    this.offerAccumulated(partner, true, allWords);
  }

  /** Adds a common word's weight to the candidates already found that carry it. */
  private addToTouched(tokenId: number, weight: number): void {
    const { nameTokenOffsets, nameTokenIds } = this.index.data;
    for (const hotel of this.touched) {
      for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) {
        if (nameTokenIds[k] === tokenId) this.accumulated[hotel]! += weight;
      }
    }
  }

  private collectNearby(partner: PreparedPartner): void {
    const { latitudes, longitudes, cellHotels } = this.index.data;
    const rangeCount = this.index.cellRangesNearby(partner.lat, partner.lon, TYPO_SEARCH_RADIUS_METERS, this.ranges);
    for (let r = 0; r < rangeCount; r++) {
      for (let k = this.ranges[r * 2]!, end = this.ranges[r * 2 + 1]!; k < end; k++) {
        const hotel = cellHotels[k]!;
        if (this.visitedStamp[hotel] === this.stamp) continue;
        const distance = approximateDistanceMeters(partner.lat, partner.lon, latitudes[hotel]!, longitudes[hotel]!);
        if (distance > TYPO_SEARCH_RADIUS_METERS) continue;
        const hint = this.nameHint(partner, hotel);
        // A name too damaged to look alike is still worth scoring next door at the same address.
        const details = this.detailBonus(partner, hotel);
        if (hint < MIN_NAME_HINT && details < SAME_DETAIL_BONUS) continue;
        this.visitedStamp[hotel] = this.stamp;
        this.offer(hotel, hint + details + PROXIMITY_BONUS * (1 - distance / SEARCH_RADIUS_METERS));
      }
    }
  }

  /** Cheap name resemblance for blocking: shared-word weight, or trigram overlap for typos. */
  private nameHint(partner: PreparedPartner, hotel: number): number {
    const { nameTokenOffsets, nameTokenIds, tokenWeights, nameWeightTotals, nameSignatures } = this.index.data;
    const ids = partner.name.ids;
    const end = nameTokenOffsets[hotel + 1]!;
    let shared = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      for (let k = nameTokenOffsets[hotel]!; k < end; k++) {
        if (nameTokenIds[k] === id) {
          shared += 2 * tokenWeights[id]!;
          break;
        }
      }
    }
    const total = partner.name.total + nameWeightTotals[hotel]!;
    const wordOverlap = total > 0 ? shared / total : 0;
    if (wordOverlap >= MIN_NAME_HINT) return wordOverlap;
    return Math.max(wordOverlap, signatureSimilarity(partner.signature, 0, nameSignatures, hotel * SIGNATURE_WORDS));
  }

  /**
   * Hotels sharing the partner's postcode (the partner's country when known), kept when their
   * name looks even a little alike: a postcode is a small block, so a damaged name still finds them.
   */
  private collectByPostalCode(partner: PreparedPartner): void {
    const { postalHotels, postalCodes, countryOfHotel, latitudes, longitudes } = this.index.data;
    this.index.postalRange(partner.postalCode, this.range);
    const start = this.range[0]!;
    const end = this.range[1]!;
    if (end - start > MAX_POSTAL_BLOCK) return;
    const located = !Number.isNaN(partner.lat);
    for (let k = start; k < end; k++) {
      const hotel = postalHotels[k]!;
      if (this.visitedStamp[hotel] === this.stamp || !textEquals(postalCodes, hotel, partner.postalCode)) continue;
      if (partner.countryId !== 0 && countryOfHotel[hotel] !== partner.countryId) continue;
      const hint = this.nameHint(partner, hotel);
      const details = this.detailBonus(partner, hotel);
      // Same postcode and same street: scored whatever the name looks like (typos, renames).
      if (hint < MIN_POSTAL_NAME_HINT && details < 2 * SAME_DETAIL_BONUS) continue;
      this.visitedStamp[hotel] = this.stamp;
      let score = hint + details;
      if (located && !Number.isNaN(latitudes[hotel]!)) {
        const distance = approximateDistanceMeters(partner.lat, partner.lon, latitudes[hotel]!, longitudes[hotel]!);
        score += PROXIMITY_BONUS * Math.max(-1, 1 - distance / SEARCH_RADIUS_METERS);
      }
      this.offer(hotel, score);
    }
  }

  /**
   * Hotels sharing the partner's name words, in its city (`inCity`) or its whole country, ranked
   * by shared weight. Rare words find the candidates; a common word (a city name, a big chain)
   * only adds weight to candidates already found, by checking their few words instead of walking
   * its long hotel list.
   */
  private collectByName(partner: PreparedPartner, inCity: boolean): void {
    const { postingHotels, cityPostingHotels, tokenWeights } = this.index.data;
    const postings = inCity ? cityPostingHotels : postingHotels;
    const located = !Number.isNaN(partner.lat);
    const ids = partner.searchTokenIds;
    const wordCount = Math.min(ids.length, MAX_SEARCH_WORDS);
    const starts = this.wordStarts;
    const ends = this.wordEnds;
    const order = this.wordOrder;
    for (let w = 0; w < wordCount; w++) {
      if (inCity) this.index.cityPostingRange(ids[w]!, partner.cityId, this.range);
      else this.index.postingRange(ids[w]!, partner.countryId, this.range);
      starts[w] = this.range[0]!;
      ends[w] = this.range[1]!;
      const length = ends[w]! - starts[w]!;
      let position = w;
      while (position > 0 && ends[order[position - 1]!]! - starts[order[position - 1]!]! > length) {
        order[position] = order[position - 1]!;
        position -= 1;
      }
      order[position] = w;
    }
    const touched = this.touched;
    touched.length = 0;
    // A pinned partner searches beyond its pin only to rescue a pin that is far off: rare words
    // suffice for that. Without a pin the name is the main key and may walk longer lists.
    const limit = located
      ? inCity
        ? MAX_CITY_POSTINGS_PINNED
        : MAX_POSTINGS_PINNED
      : inCity
        ? MAX_CITY_POSTINGS_PER_WORD
        : MAX_POSTINGS_PER_WORD;
    let walked = 0;
    for (let rank = 0; rank < wordCount; rank++) {
      const id = ids[order[rank]!]!;
      const start = starts[order[rank]!]!;
      const end = ends[order[rank]!]!;
      const weight = 2 * tokenWeights[id]!;
      // After the rarest word, walk further words only while the walk stays short: the
      // candidates found so far get the other words' weight by a check of their own few words.
      if (rank > 0 && walked + (end - start) > limit) {
        this.addToTouched(id, weight);
        continue;
      }
      walked += end - start;
      if (end - start > limit) {
        // Even the rarest word is common (a name like "Hotel Paris"). A pinned partner only gets
        // here when nothing near its pin convinced, and a partner with a city had its city searched:
        // a whole-country walk of a common word is not worth it for them.
        if (located || (!inCity && partner.cityId !== 0)) break;
      }
      for (let k = start; k < end; k++) {
        const hotel = postings[k]!;
        if (this.accumulated[hotel] === 0) touched.push(hotel);
        this.accumulated[hotel]! += weight;
      }
    }
    this.offerAccumulated(partner, false);
  }

  /**
   * Offers the hotels whose shared-word weight was accumulated (and clears it). `nearby`: they
   * came from the grid around the pin, so a convincing one ends the search.
   */
  private offerAccumulated(partner: PreparedPartner, nearby: boolean, allWords = Infinity): void {
    const { nameWeightTotals, latitudes, longitudes, nameSignatures, cityOfHotel } = this.index.data;
    const accumulated = this.accumulated;
    const visitedStamp = this.visitedStamp;
    const located = !Number.isNaN(partner.lat);
    const partnerTotal = partner.name.total;
    const rescueTypos = !nearby && partner.hasUnknownWord;
    const longitudeScale = located ? Math.cos(partner.lat * RADIANS) : 0;
    const touched = this.touched;
    for (let t = 0; t < touched.length; t++) {
      const hotel = touched[t]!;
      const shared = accumulated[hotel]!;
      const overlap = shared / (partnerTotal + nameWeightTotals[hotel]!);
      accumulated[hotel] = 0;
      if (visitedStamp[hotel] === this.stamp) continue;
      // Shared words undercount a name with a typo (a word the reference does not know); its
      // trigrams still agree. Near the pin, collectNearby covers typos; far from it, the city.
      let hint = shared >= allWords * 0.999 ? Math.max(overlap, CONTAINED_NAME_HINT) : overlap;
      if (rescueTypos && overlap < CONFIDENT_NAME_HINT && (partner.cityId === 0 || cityOfHotel[hotel] === partner.cityId)) {
        hint = Math.max(overlap, signatureSimilarity(partner.signature, 0, nameSignatures, hotel * SIGNATURE_WORDS));
      }
      if (hint < MIN_NAME_HINT) continue;
      // Even with every bonus this hotel would not make the full shortlist: skip the details.
      if (this.shortlistCount === SHORTLIST_SIZE && hint + MAX_BLOCKING_BONUS <= this.shortlistScores[SHORTLIST_SIZE - 1]!) continue;
      let score = hint + this.detailBonus(partner, hotel);
      if (located && !Number.isNaN(latitudes[hotel]!)) {
        const dy = latitudes[hotel]! - partner.lat;
        const dx = (longitudes[hotel]! - partner.lon) * longitudeScale;
        const distance = Math.sqrt(dx * dx + dy * dy) * METERS_PER_DEGREE;
        if (nearby && distance > SEARCH_RADIUS_METERS) continue;
        score += PROXIMITY_BONUS * Math.max(-1, 1 - distance / SEARCH_RADIUS_METERS);
      }
      visitedStamp[hotel] = this.stamp;
      this.offer(hotel, score);
    }
    touched.length = 0;
  }

  /** Cheap agreement on city, postcode and street, to rank same-named hotels before full scoring. */
  private detailBonus(partner: PreparedPartner, hotel: number): number {
    const { cityOfHotel, postalCodes, addressWords } = this.index.data;
    let bonus = 0;
    if (partner.cityId !== 0 && cityOfHotel[hotel] === partner.cityId) bonus += SAME_CITY_BONUS;
    if (
      partner.postalCode !== '' &&
      this.index.data.postalCodeHashes[hotel] === partner.postalCodeHash &&
      textEquals(postalCodes, hotel, partner.postalCode)
    )
      bonus += SAME_DETAIL_BONUS;
    if (
      partner.addressWordsText !== '' &&
      this.index.data.addressWordsHashes[hotel] === partner.addressWordsHash &&
      textEquals(addressWords, hotel, partner.addressWordsText)
    )
      bonus += SAME_DETAIL_BONUS;
    return bonus;
  }

  /** Keeps the SHORTLIST_SIZE best blocking scores (insertion into a small sorted buffer). */
  private offer(hotel: number, score: number): void {
    const hotels = this.shortlistHotels;
    const scores = this.shortlistScores;
    if (this.shortlistCount === SHORTLIST_SIZE && score <= scores[SHORTLIST_SIZE - 1]!) return;
    let position = this.shortlistCount < SHORTLIST_SIZE ? this.shortlistCount++ : SHORTLIST_SIZE - 1;
    while (position > 0 && scores[position - 1]! < score) {
      scores[position] = scores[position - 1]!;
      hotels[position] = hotels[position - 1]!;
      position -= 1;
    }
    scores[position] = score;
    hotels[position] = hotel;
  }
}
