/**
 * The one text toolkit of every capability: folding text to comparable words, edit distance and
 * character n-gram similarity. The matching engine (shared/mapping) and the reference search
 * (shared/reference/search) both fold with `foldWords` / `foldText`, so a spelling that one of them
 * treats as equal the other does too. Rules that belong to one use (name canonical tokens, stop
 * words, address parts, search word tolerances on top of these primitives) stay with that use.
 *
 * Hot-path code: no regular expressions on ASCII input, no per-call allocation beyond the words
 * returned; the edit-distance rows are module-level scratch buffers.
 */
import anyAscii from 'any-ascii';

// ---------------------------------------------------------------- stored text

/**
 * Characters no text the service keeps may hold, wherever it comes from (a request field, a file
 * row): C0 controls but tab and line breaks (NUL ends strings elsewhere, ESC starts terminal
 * escapes), DEL, C1 controls, and the bidirectional embeddings, overrides and isolates that make a
 * reviewer read text in another order than it is stored ("Trojan Source"). Fields that may not
 * hold tab or line breaks either refuse them on top of this.
 */
export const UNSAFE_TEXT_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** Half of a surrogate pair: JSON can spell one ("\ud800"), but no UTF-8 encoder can store it (it becomes U+FFFD, and two texts one). */
export const LONE_SURROGATE = /\p{Cs}/u;

/** Tab and line breaks: text may hold them, an identifier may not (it is a key, a query parameter, a CSV cell, a log field). */
export const TAB_OR_LINE_BREAK = /[\t\n\r]/;

/** "U+0007", for a message that names the character without printing it. */
export function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

// ---------------------------------------------------------------- folding

// Elided articles (l'hôtel, d'angleterre) are separate words; other apostrophes join (macy's).
const ELIDED = new Set(['l', 'd', 'j', 'n', 'm', 'qu', 'dell', 'all', 'nell', 'sull']);
const NON_ASCII = /[^\x00-\x7f]/;
const TYPOGRAPHIC_APOSTROPHES = /[’‘´]/g;

/**
 * Character classes of ASCII for the one-pass folder: 0 separator, 1 letter or digit, 2
 * apostrophe, 3 "&" or "+" (the word "and").
 */
const CHAR_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)) CHAR_CLASS[code] = 1;
}
CHAR_CLASS[39] = 2; // '
CHAR_CLASS[96] = 2; // `
CHAR_CLASS[38] = 3; // &
CHAR_CLASS[43] = 3; // +

/**
 * Words of any text, folded, in order (repeats kept):
 * - any script is transliterated to Latin (`any-ascii`, only for non-ASCII text): "Москва" ->
 *   "moskva", "北京" -> "beijing", "ß" -> "ss", "æ" -> "ae";
 * - accents and case go: "Hôtel Zürich" -> "hotel", "zurich";
 * - every character other than a letter or digit breaks words ("Château-Frontenac", "St.");
 * - "&" and "+" are the word "and": "L'Hotel & Spa" -> "l", "hotel", "and", "spa";
 * - elided articles split off ("l'hôtel", "d'Angleterre"), other apostrophes join ("Macy's" ->
 *   "macys");
 * - "b&b", "b n b", "bandb" and "bed and breakfast" are one word "bnb".
 * One pass over the characters, no regular expressions for ASCII text.
 */
export function foldWords(raw: string): string[] {
  let text = raw;
  if (NON_ASCII.test(text)) text = anyAscii(text.replace(TYPOGRAPHIC_APOSTROPHES, "'"));
  const words: string[] = [];
  let start = -1;
  let word = '';
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? text.charCodeAt(i) : 32;
    const kind = code < 128 ? CHAR_CLASS[code]! : 0;
    if (kind === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      word += text.slice(start, i);
      start = -1;
    }
    if (kind === 2 && word !== '') {
      const lower = word.toLowerCase();
      if (ELIDED.has(lower)) {
        words.push(lower);
        word = '';
      }
      // Otherwise the apostrophe joins: the word goes on after it.
      continue;
    }
    if (word !== '') {
      words.push(word.toLowerCase());
      word = '';
    }
    if (kind === 3) words.push('and');
  }
  return joinBedAndBreakfast(words);
}

function joinBedAndBreakfast(words: string[]): string[] {
  let found = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'bandb' || word === 'bnb' || ((word === 'b' || word === 'bed') && i + 2 < words.length)) {
      found = true;
      break;
    }
  }
  if (!found) return words;
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const middle = words[i + 1];
    const last = words[i + 2];
    if (word === 'b' && (middle === 'and' || middle === 'n') && last === 'b') {
      joined.push('bnb');
      i += 2;
    } else if (word === 'bed' && middle === 'and' && last === 'breakfast') {
      joined.push('bnb');
      i += 2;
    } else joined.push(word === 'bandb' ? 'bnb' : word);
  }
  return joined;
}

/**
 * The folded form of any text (`foldWords` joined by one space, no leading or trailing space):
 * "L'Hotel & Spa" -> "l hotel and spa", "Hôtel Zürich" -> "hotel zurich".
 */
export function foldText(raw: string): string {
  // Fast path for most names: ASCII letters and digits in words separated by single spaces, and no
  // word the b&b rule might join (b, bed, bnb, bandb: any b-word of 1, 3 or 5 letters goes the
  // long way). The fold of such a text is its lower case; one scan, one string.
  const length = raw.length;
  let wordStart = 0;
  let i = 0;
  for (; i < length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 32) {
      if (i === wordStart || mayJoinAsBnb(raw, wordStart, i)) break;
      wordStart = i + 1;
    } else if (code >= 128 || CHAR_CLASS[code] !== 1) break;
  }
  if (i === length && length > wordStart && !mayJoinAsBnb(raw, wordStart, length)) return raw.toLowerCase();
  return foldWords(raw).join(' ');
}

function mayJoinAsBnb(text: string, start: number, end: number): boolean {
  const wordLength = end - start;
  return (wordLength === 1 || wordLength === 3 || wordLength === 5) && (text.charCodeAt(start) | 32) === 98;
}

/** The words of a `foldText` result (its inverse up to the fold): "" has none. */
export function splitFoldedText(folded: string): string[] {
  return folded === '' ? [] : folded.split(' ');
}

// ---------------------------------------------------------------- edit distance

let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);
let twoRowsBack = new Int32Array(64);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition, each one edit),
 * giving up as soon as it must exceed `max`: returns max + 1 in that case. No allocation (the rows
 * are module-level and grow once for long words).
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const lengthA = a.length;
  const lengthB = b.length;
  if (Math.abs(lengthA - lengthB) > max) return max + 1;
  if (lengthB + 1 > previousRow.length) {
    previousRow = new Int32Array(lengthB * 2 + 1);
    currentRow = new Int32Array(lengthB * 2 + 1);
    twoRowsBack = new Int32Array(lengthB * 2 + 1);
  }
  for (let j = 0; j <= lengthB; j++) previousRow[j] = j;
  for (let i = 1; i <= lengthA; i++) {
    currentRow[0] = i;
    let rowMinimum = i;
    const charA = a.charCodeAt(i - 1);
    for (let j = 1; j <= lengthB; j++) {
      const charB = b.charCodeAt(j - 1);
      const cost = charA === charB ? 0 : 1;
      let value = Math.min(previousRow[j]! + 1, currentRow[j - 1]! + 1, previousRow[j - 1]! + cost);
      if (i > 1 && j > 1 && charA === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === charB) {
        value = Math.min(value, twoRowsBack[j - 2]! + 1);
      }
      currentRow[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > max) return max + 1;
    const recycled = twoRowsBack;
    twoRowsBack = previousRow;
    previousRow = currentRow;
    currentRow = recycled;
  }
  const distance = previousRow[lengthB]!;
  return distance > max ? max + 1 : distance;
}

/** Longest text levenshteinDistance compares (its bit-parallel pattern is one 32-bit word). */
export const LEVENSHTEIN_MAX_LENGTH = 32;
const patternMasks = new Int32Array(65_536);

/**
 * Levenshtein distance of two texts of at most LEVENSHTEIN_MAX_LENGTH characters (longer ones are
 * compared on that many), bit-parallel (Myers 1999, as Hyyrö formulated it): one pass over `b`
 * with a few word operations per character, no allocation. For whole names, where the optimal
 * string alignment's table would cost tens of times more.
 */
export function levenshteinDistance(a: string, b: string): number {
  const lengthA = Math.min(a.length, LEVENSHTEIN_MAX_LENGTH);
  const lengthB = Math.min(b.length, LEVENSHTEIN_MAX_LENGTH);
  if (lengthA === 0) return lengthB;
  if (lengthB === 0) return lengthA;
  for (let i = 0; i < lengthA; i++) patternMasks[a.charCodeAt(i)]! |= 1 << i;
  const last = 1 << (lengthA - 1);
  let positive = -1;
  let negative = 0;
  let distance = lengthA;
  for (let j = 0; j < lengthB; j++) {
    const match = patternMasks[b.charCodeAt(j)]!;
    const diagonal = (((match & positive) + positive) ^ positive) | match | negative;
    let horizontalPositive = negative | ~(diagonal | positive);
    let horizontalNegative = positive & diagonal;
    if (horizontalPositive & last) distance += 1;
    else if (horizontalNegative & last) distance -= 1;
    horizontalPositive = (horizontalPositive << 1) | 1;
    horizontalNegative <<= 1;
    positive = horizontalNegative | ~(diagonal | horizontalPositive);
    negative = horizontalPositive & diagonal;
  }
  for (let i = 0; i < lengthA; i++) patternMasks[a.charCodeAt(i)] = 0;
  return distance;
}

/**
 * Typos tolerated in a word of this length: none up to 3 letters, one for 4-7, two from 8. Both
 * the matching engine (per token pair, by the shorter token) and the reference search (per query
 * word) use this scale.
 */
export function toleratedEdits(wordLength: number): number {
  if (wordLength <= 3) return 0;
  return wordLength <= 7 ? 1 : 2;
}

// ---------------------------------------------------------------- character n-grams

/** Bigrams of a word padded with boundary marks, so that first and last letters count too: "ab" -> "^a", "ab", "b$". */
export function paddedBigrams(word: string): string[] {
  const padded = `^${word}$`;
  const bigrams: string[] = [];
  for (let i = 0; i < padded.length - 1; i++) bigrams.push(padded.slice(i, i + 2));
  return bigrams;
}

/**
 * Sørensen-Dice similarity of two texts' character trigram multisets (0 to 1), each text padded
 * with a space at both ends so that words' first and last letters count and texts shorter than
 * three characters still compare. Trigrams spanning a space tie neighbouring words together, so
 * the same words in another order score lower. Meant for folded texts; allocates a small map, so
 * it is for final scoring of a few candidates, not for a scan.
 */
export function trigramDice(a: string, b: string): number {
  const paddedA = ` ${a} `;
  const paddedB = ` ${b} `;
  const counts = new Map<string, number>();
  for (let i = 0; i < paddedA.length - 2; i++) {
    const trigram = paddedA.slice(i, i + 3);
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < paddedB.length - 2; i++) {
    const trigram = paddedB.slice(i, i + 3);
    const remaining = counts.get(trigram) ?? 0;
    if (remaining > 0) {
      shared++;
      counts.set(trigram, remaining - 1);
    }
  }
  const total = paddedA.length - 2 + (paddedB.length - 2);
  return total === 0 ? 1 : (2 * shared) / total;
}
