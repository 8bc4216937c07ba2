/**
 * Matching-specific similarity: token similarity (typo and abbreviation rules over the platform's
 * edit distance), character-trigram signatures, distance. All allocation-free on the hot path.
 * Edit distance and whole-text trigram similarity are in shared/platform/text.ts.
 */
import { boundedEditDistance, toleratedEdits } from '../platform/text';
import { isNumberToken, tokenKind } from './text';

const EARTH_RADIUS_METERS = 6_371_008.8;
const RADIANS = Math.PI / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Equirectangular distance: within 0.5 % of the great circle up to tens of kilometres, and several
 * times cheaper; good for ranking candidates, not for reporting.
 */
export function approximateDistanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dy = lat2 - lat1;
  const dx = (lon2 - lon1) * Math.cos(((lat1 + lat2) / 2) * RADIANS);
  return Math.sqrt(dx * dx + dy * dy) * RADIANS * EARTH_RADIUS_METERS;
}

/** Shortest token length at which a prefix counts as an abbreviation ("intercont" for "intercontinental"). */
const MIN_ABBREVIATION_LENGTH = 3;

/**
 * How alike two different tokens are, 0..1: typos (one edit per 4 letters, at most two), and
 * abbreviations written as a prefix. Numbers must be equal: "Blk 701" is not "Blk 704".
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (isNumberToken(a) || isNumberToken(b)) return 0;
  const shorter = a.length <= b.length ? a : b;
  const longer = a.length <= b.length ? b : a;
  if (shorter.length < 3) return 0;
  const allowedEdits = toleratedEdits(shorter.length);
  if (allowedEdits > 0) {
    const edits = boundedEditDistance(a, b, allowedEdits);
    if (edits <= allowedEdits) return 1 - edits / (longer.length + 1);
  }
  if (shorter.length >= MIN_ABBREVIATION_LENGTH && longer.startsWith(shorter)) return 0.7;
  return 0;
}

/**
 * Text whose trigrams make a name's signature: its distinctive words without word breaks (so
 * "Red House" and "Redhouse" agree), leaving out "hotel"-like words that every name shares.
 */
export function nameSignatureText(tokens: readonly string[]): string {
  const distinctive = tokens.filter((token) => {
    const kind = tokenKind(token);
    return kind === 'distinctive' || kind === 'number';
  });
  return (distinctive.length > 0 ? distinctive : tokens).join('');
}

export const SIGNATURE_WORDS = 4;

/** Sets bits for the character trigrams of `text` (a compact name) into signature words at `offset`. */
export function writeTrigramSignature(text: string, target: Uint32Array, offset: number): void {
  for (let word = 0; word < SIGNATURE_WORDS; word++) target[offset + word] = 0;
  for (let i = 0; i + 2 < text.length; i++) {
    const hash = (Math.imul(text.charCodeAt(i), 961) + Math.imul(text.charCodeAt(i + 1), 31) + text.charCodeAt(i + 2)) & 127;
    target[offset + (hash >>> 5)]! |= 1 << (hash & 31);
  }
}

export function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Dice overlap of two trigram signatures: a cheap, typo-tolerant "do these names look alike". */
export function signatureSimilarity(a: Uint32Array, offsetA: number, b: Uint32Array, offsetB: number): number {
  let shared = 0;
  let total = 0;
  for (let word = 0; word < SIGNATURE_WORDS; word++) {
    const wordA = a[offsetA + word]!;
    const wordB = b[offsetB + word]!;
    shared += popcount32(wordA & wordB);
    total += popcount32(wordA) + popcount32(wordB);
  }
  return total === 0 ? 0 : (2 * shared) / total;
}

/** Dice overlap of two word lists where a typo still counts as (most of) a match. */
export function fuzzyWordDice(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let matched = 0;
  for (const word of a) {
    let best = 0;
    for (const other of b) {
      const similarity = tokenSimilarity(word, other);
      if (similarity > best) best = similarity;
    }
    matched += best;
  }
  return (2 * matched) / (a.length + b.length);
}
