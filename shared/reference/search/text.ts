/**
 * Text folding and similarity used by the reference search: case- and accent-insensitive forms,
 * word tokens, bounded edit distance and bigram similarity.
 */

/** Letters that Unicode decomposition does not reduce to ASCII. */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i', þ: 'th', ð: 'd',
};
const SPECIAL_LETTER_PATTERN = /[ßæœøđłıþð]/g;
const COMBINING_MARKS = /\p{M}+/gu;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

const NON_ASCII = /[^\x00-\x7f]/;

/** Lower case without accents: "Hôtel Zürich" -> "hotel zurich". */
export function foldText(text: string): string {
  // Most names are plain ASCII: skip Unicode decomposition for them.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_LETTER_PATTERN, (letter) => SPECIAL_LETTERS[letter] as string);
}

/** Words of an already folded text, in order; punctuation, apostrophes and '&' separate words. */
export function splitFoldedWords(folded: string): string[] {
  return folded.split(WORD_SEPARATORS).filter((word) => word.length > 0);
}

/** Folded words of a text, in order. */
export function tokenize(text: string): string[] {
  return splitFoldedWords(foldText(text));
}

/** Distinct folded words, first occurrence order. */
export function distinctTokens(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or
 * `maxDistance + 1` as soon as it is known to exceed `maxDistance`.
 */
export function boundedEditDistance(a: string, b: string, maxDistance: number): number {
  if (Math.abs(a.length - b.length) > maxDistance) return maxDistance + 1;
  const width = b.length + 1;
  let previousPrevious = new Uint16Array(width);
  let previous = new Uint16Array(width);
  let current = new Uint16Array(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j < width; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (previousPrevious[j - 2] as number) + 1);
      }
      current[j] = best;
      if (best < rowMinimum) rowMinimum = best;
    }
    if (rowMinimum > maxDistance) return maxDistance + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  return Math.min(previous[b.length] as number, maxDistance + 1);
}

/** Edits tolerated in a word of this length: none for short words, two for long ones. */
export function toleratedEdits(wordLength: number): number {
  if (wordLength <= 3) return 0;
  return wordLength <= 7 ? 1 : 2;
}

/** Bigrams of a word padded with boundary marks, so that first and last letters count too. */
export function paddedBigrams(word: string): string[] {
  const padded = `^${word}$`;
  const bigrams: string[] = [];
  for (let i = 0; i < padded.length - 1; i++) bigrams.push(padded.slice(i, i + 2));
  return bigrams;
}

/**
 * Sørensen-Dice similarity of two texts' character trigrams (0 to 1). Trigrams spanning a space
 * tie neighbouring words together, so the same words in another order score lower.
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
  return (2 * shared) / (paddedA.length - 2 + (paddedB.length - 2));
}
