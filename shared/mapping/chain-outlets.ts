/**
 * Chains: a row that names only a chain ("Starbucks", "7-Eleven") fits each of the chain's outlets
 * as well as the others by name, so among them the pin decides. The outlets' name evidence is made
 * an exact name's, and the candidates ranked again.
 */
import { DIFFERENT_KIND_LOG_ODDS, nameLogOdds, type ScoredCandidate } from './candidate-evidence';
import { compareNames, MAX_COMPARED_WORDS, nameViewBuffer, referenceNameView } from './name-comparison';
import type { PreparedPartner } from './partner-row';
import { isCategoryTail, isKindWord, locatesAnOutlet } from './place-kinds';
import type { MatchingIndex } from './matching-index';
import { isAddressWord, isNumberToken, tokenKind } from './text';

/**
 * A chain's name has a word of its own, a brand ("7-Eleven", "Caffè Vergnano 1882", "Hotel 81"):
 * "Playground", "Swimming Pool" and "Blk 7" name kinds of places and addresses, which many
 * unrelated places share.
 */
function namesABrand(partner: PreparedPartner): boolean {
  const words = partner.name.texts.slice(0, partner.name.count);
  if (words.some((word) => tokenKind(word) === 'distinctive' && !isKindWord(word) && !isAddressWord(word))) return true;
  // A number is the brand when no address word makes it a block or a house number ("Hotel 81", not "Blk 81").
  return words.some(isNumberToken) && !words.some(isAddressWord);
}

/** Outlets of one chain near a row that names only the chain, before distance alone chooses among them. */
const CHAIN_MIN_OUTLETS = 2;

/** An outlet named by where it is stands at the pin when it is this near (pins drift some tens of metres). */
const OUTLET_AT_PIN_METERS = 100;
/** A name and its trade ("Guardian" / "Guardian Pharmacy") are at least this alike: less alike, the name adds more. */
const CATEGORY_TAIL_MIN_SIMILARITY = 0.6;
/** A lone namesake this many times farther than an outlet named by where it is ("Days Inn" far off, "Days Inn Toronto-Beaches" at the pin): a chain too. */
const LONE_NAMESAKE_RATIO = 3;
/** What an exact name adds to a candidate's log-odds: every outlet of a chain the row names gets it. */

/** What an exact name adds to a candidate's log-odds: every outlet of a chain the row names gets it. */
const EXACT_NAME_LOG_ODDS = nameLogOdds(1);

const outletName = nameViewBuffer();

export interface RankedCandidates {
  /** Best first by evidence log-odds. */
  ranked: ScoredCandidate[];
  /** Hotels that are outlets of the chain the row names; undefined when the row names no chain. */
  outlets: ReadonlySet<number> | undefined;
}

/** The candidates ranked, with a chain's outlets told apart by distance when the row names a chain. */
export function rankChainOutlets(index: MatchingIndex, partner: PreparedPartner, found: ScoredCandidate[]): RankedCandidates {
  const outlets = chainOutlets(index, partner, found);
  if (!outlets) return { ranked: found, outlets: undefined };
  return { ranked: byDistanceAmong(outlets, found), outlets: new Set(outlets.map((outlet) => outlet.hotel)) };
}

/** A candidate that may be an outlet of the chain the row names: the row's whole name begins the candidate's, and the pin is known. */
function mayBeOutlet(candidate: ScoredCandidate): boolean {
  return candidate.containsPartnerName && candidate.distanceMeters !== null;
}

/**
 * A row that names only a chain ("Starbucks Coffee") fits every outlet whose name holds its words
 * ("Starbucks Coffee Raffles Place") equally: the outlets' extra words say where, which the row
 * does not contradict. Returns those outlets when the row names a chain, else undefined: two
 * places near it bear its name (exactly, or with only the chain's trade added: "Starbucks" /
 * "Starbucks Coffee"), or one does, far off, and an outlet named by where it is stands at the pin.
 */
function chainOutlets(index: MatchingIndex, partner: PreparedPartner, scored: readonly ScoredCandidate[]): ScoredCandidate[] | undefined {
  if (Number.isNaN(partner.lat)) return undefined;
  // A chain's name is the whole name of several places near the row; a place's name with its parts
  // around it ("Ridge View Residences Block C") is the whole name of one.
  let namesakes = 0;
  let nearestNamesake = Infinity;
  let nearestOutlet = Infinity;
  for (const candidate of scored) {
    if (!mayBeOutlet(candidate)) continue;
    if (
      candidate.nameSimilarity >= 0.99 ||
      (candidate.nameSimilarity >= CATEGORY_TAIL_MIN_SIMILARITY && addsACategoryOnly(index, partner, candidate))
    ) {
      namesakes += 1;
      nearestNamesake = Math.min(nearestNamesake, candidate.distanceMeters!);
    } else if (candidate.differentKind === undefined) nearestOutlet = Math.min(nearestOutlet, candidate.distanceMeters!);
  }
  const loneNamesakeFarOff =
    namesakes === 1 && nearestOutlet <= OUTLET_AT_PIN_METERS && nearestNamesake >= LONE_NAMESAKE_RATIO * nearestOutlet;
  if ((namesakes < CHAIN_MIN_OUTLETS && !loneNamesakeFarOff) || !namesABrand(partner)) return undefined;
  const rowWords = partner.name.texts.slice(0, partner.name.count);
  return scored.filter((candidate) => {
    if (!mayBeOutlet(candidate)) return false;
    if (candidate.differentKind === undefined) return true;
    const name = referenceNameView(index, candidate.hotel, outletName);
    return locatesAnOutlet(candidate.differentKind, rowWords, name.texts.slice(0, name.count));
  });
}

/** The candidate's name is the row's and words that say what kind of business it is ("Starbucks" / "Starbucks Coffee"). */
function addsACategoryOnly(index: MatchingIndex, partner: PreparedPartner, candidate: ScoredCandidate): boolean {
  const name = referenceNameView(index, candidate.hotel, outletName);
  // Words past those compareNames compares would be added words unseen.
  if (name.count > MAX_COMPARED_WORDS) return false;
  const { allOfA, matchedB } = compareNames(partner.name, name);
  if (!allOfA) return false;
  const added: string[] = [];
  for (let k = 0; k < name.count; k++) if (((matchedB >>> k) & 1) === 0) added.push(name.texts[k]!);
  return isCategoryTail(added);
}

/**
 * Among a chain's outlets the name's log-odds is made an exact name's (the row names the chain,
 * with or without its trade), so that distance (and the namesake rule below) chooses, not the
 * length of the outlets' names; within a chain a kind-of-place word says where the outlet is
 * ("Costa Coffee Central Station").
 */
function byDistanceAmong(outlets: readonly ScoredCandidate[], scored: readonly ScoredCandidate[]): ScoredCandidate[] {
  const isChainOutlet = new Set(outlets);
  const lifted = scored.map((candidate) =>
    isChainOutlet.has(candidate)
      ? candidate.asOutlet(
          candidate.logOdds +
            EXACT_NAME_LOG_ODDS -
            nameLogOdds(candidate.nameSimilarity) -
            (candidate.differentKind ? DIFFERENT_KIND_LOG_ODDS : 0),
        )
      : candidate,
  );
  return lifted.sort((a, b) => b.logOdds - a.logOdds);
}
