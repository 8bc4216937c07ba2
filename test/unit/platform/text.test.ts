import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import {
  boundedEditDistance,
  foldText,
  foldWords,
  LEVENSHTEIN_MAX_LENGTH,
  levenshteinDistance,
  paddedBigrams,
  splitFoldedText,
  toleratedEdits,
  trigramDice,
} from '../../../shared/platform/text';

describe('foldText', () => {
  it('removes case, accents and punctuation', () => {
    assert.equal(foldText('  Hôtel  du Château-Frontenac!! '), 'hotel du chateau frontenac');
  });
  it('transliterates other scripts to Latin', () => {
    assert.equal(foldText('Гостиница Москва'), 'gostinitsa moskva');
    assert.equal(foldText('Ξενοδοχείο Αθήνα'), 'xenodocheio athina');
    assert.equal(foldText('Straße'), 'strasse');
  });
  it('spells & as and, keeps b&b whole, splits elided articles and joins possessives', () => {
    assert.equal(foldText('Tom & Jerry'), 'tom and jerry');
    assert.equal(foldText('B&B Hotel'), 'bnb hotel');
    assert.equal(foldText('Bed and Breakfast Rose'), 'bnb rose');
    assert.equal(foldText("Hôtel d'Angleterre"), 'hotel d angleterre');
    assert.equal(foldText("Macy's Inn"), 'macys inn');
  });
});

// The one fold the matching engine and the reference search share: a change here changes both.
describe('the shared fold', () => {
  it('folds "L\'Hotel & Spa" to l hotel and spa, with either apostrophe', () => {
    assert.equal(foldText("L'Hotel & Spa"), 'l hotel and spa');
    assert.equal(foldText('L’Hôtel & Spa'), 'l hotel and spa');
    assert.equal(foldText("l'hotel"), 'l hotel');
    assert.deepEqual(foldWords("L'Hotel & Spa"), ['l', 'hotel', 'and', 'spa']);
  });
  it('drops accents and case: "Hôtel Zürich" is hotel zurich', () => {
    assert.equal(foldText('Hôtel Zürich'), 'hotel zurich');
    assert.equal(foldText('HÔTEL ZÜRICH'), foldText('hotel zurich'));
    assert.equal(foldText('Île-de-France'), 'ile de france');
  });
  it('spells out letters that have no accent to drop (ß, æ, œ, ø, đ, ł, ı, þ, ð)', () => {
    assert.equal(foldText('ß'), 'ss');
    assert.equal(foldText('Großer Kurfürst'), 'grosser kurfurst');
    assert.equal(foldText('æ œ ø đ ł ı þ ð'), 'ae oe o d l i th d');
    assert.equal(foldText('ÆRØ'), 'aero');
  });
  it('transliterates non-Latin scripts (Cyrillic, Greek, Chinese, Korean, Arabic digits)', () => {
    assert.equal(foldText('Гостиница «Москва»'), 'gostinitsa moskva');
    assert.equal(foldText('Αθήνα'), 'athina');
    assert.equal(foldText('北京饭店'), 'beijingfandian');
    assert.equal(foldText('호텔 서울'), 'hotel seoul');
    assert.equal(foldText('Hotel ١٢'), 'hotel 12');
  });
  it('yields words separated by one space, nothing for punctuation only', () => {
    assert.equal(foldText(' -- '), '');
    assert.deepEqual(foldWords(''), []);
    assert.equal(foldText('St. Moritz'), foldText('st moritz'));
    assert.equal(foldText('a_b/c|d'), 'a b c d');
  });
  it('foldText is foldWords joined by one space, on its fast path (plain ASCII words) and off it', () => {
    for (const text of [
      'Grand Hotel',
      'grand hotel',
      'B Hotel Rome',
      'Bed Rock Inn',
      'Hotel BnB',
      'Bandb Rose',
      'Hotel bed',
      'Hotel  Rex',
      ' Rex',
      'Rex ',
      'b n b',
    ]) {
      assert.equal(foldText(text), foldWords(text).join(' '), text);
    }
    assert.equal(foldText('Bed and Breakfast'), 'bnb');
    assert.equal(foldText('Bed And Breakfast Rose'), 'bnb rose');
    assert.equal(foldText('b n b Rose'), 'bnb rose');
    // Seeded random texts over the characters that matter.
    const pieces = [
      'a',
      'B',
      'b',
      'bed',
      'BED',
      'n',
      'and',
      'breakfast',
      'Bnb',
      'bandb',
      '1',
      ' ',
      ' ',
      '  ',
      "'",
      '&',
      '-',
      'é',
      'l',
      'Ж',
    ];
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % pieces.length;
    for (let n = 0; n < 5000; n++) {
      let text = '';
      for (let k = next() % 8; k >= 0; k--) text += pieces[next()];
      assert.equal(foldText(text), foldWords(text).join(' '), JSON.stringify(text));
    }
  });
  it('splitFoldedText gives back the words of a folded text', () => {
    assert.deepEqual(splitFoldedText(foldText("L'Hotel & Spa")), foldWords("L'Hotel & Spa"));
    assert.deepEqual(splitFoldedText(''), []);
  });
});

describe('boundedEditDistance', () => {
  it('counts edits including adjacent transpositions', () => {
    assert.equal(boundedEditDistance('hilton', 'hilton', 2), 0);
    assert.equal(boundedEditDistance('hilton', 'hliton', 2), 1);
    assert.equal(boundedEditDistance('hilton', 'hiltn', 2), 1);
    assert.equal(boundedEditDistance('kitten', 'sitting', 3), 3);
  });
  it('gives up beyond the bound', () => {
    assert.equal(boundedEditDistance('marriott', 'sheraton', 2), 3);
    // The last row's minimum is within the bound but the distance is not: still max + 1.
    assert.equal(boundedEditDistance('abcd', 'abdc', 0), 1);
    assert.equal(boundedEditDistance('abcdef', 'abcxyz', 1), 2);
  });
  it('handles empty and long words (scratch rows grow)', () => {
    assert.equal(boundedEditDistance('', '', 1), 0);
    assert.equal(boundedEditDistance('', 'ab', 2), 2);
    const long = 'x'.repeat(200);
    assert.equal(boundedEditDistance(long, `${long.slice(0, 100)}y${long.slice(101)}`, 2), 1);
    assert.equal(boundedEditDistance('hilton', 'hliton', 2), 1);
  });
});

describe('levenshteinDistance', () => {
  /** The textbook table, to check the bit-parallel count against. */
  function tableDistance(a: string, b: string): number {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++)
        current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
    return previous[b.length]!;
  }

  it('counts insertions, deletions and substitutions (a transposition is two)', () => {
    assert.equal(levenshteinDistance('redhouse', 'redhouse'), 0);
    assert.equal(levenshteinDistance('', 'abc'), 3);
    assert.equal(levenshteinDistance('abc', ''), 3);
    assert.equal(levenshteinDistance('kitten', 'sitting'), 3);
    assert.equal(levenshteinDistance('marinabaysands', 'marinabaysand'), 1);
    assert.equal(levenshteinDistance('ab', 'ba'), 2);
  });

  it('agrees with the table on every pair of texts up to 32 characters (a seeded sample), whatever the alphabet', () => {
    let state = 7;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
    const text = (alphabet: string) =>
      Array.from({ length: Math.floor(next() * 33) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let k = 0; k < 3000; k++) {
      const alphabet = k % 2 === 0 ? 'ab1 ' : 'abcdefghijklmnopqrstuvwxyz0123456789éü';
      const a = text(alphabet);
      const b = text(alphabet);
      assert.equal(levenshteinDistance(a, b), tableDistance(a, b), `${a} / ${b}`);
    }
  });

  it('compares longer texts on their first 32 characters', () => {
    assert.equal(levenshteinDistance(`${'a'.repeat(32)}xyz`, 'a'.repeat(32)), 0);
    assert.equal(LEVENSHTEIN_MAX_LENGTH, 32);
  });
});

describe('toleratedEdits', () => {
  it('allows no typo up to 3 letters, one for 4-7, two from 8', () => {
    assert.deepEqual([1, 3, 4, 7, 8, 20].map(toleratedEdits), [0, 0, 1, 1, 2, 2]);
  });
});

describe('character n-grams', () => {
  it('trigramDice is 1 for equal strings and low for different ones', () => {
    assert.equal(trigramDice('redhouse', 'redhouse'), 1);
    assert.ok(trigramDice('redhouse', 'bluelagoon') < 0.1);
  });
  it('trigramDice scores the same words in another order lower, and compares short texts', () => {
    const reordered = trigramDice('le petit parisien', 'parisien petit le');
    assert.ok(reordered < 1 && reordered > 0.5, `${reordered}`);
    assert.equal(trigramDice('ab', 'ab'), 1);
    assert.equal(trigramDice('', ''), 1);
    assert.equal(trigramDice('ab', 'cd'), 0);
  });
  it('paddedBigrams marks the first and last letters', () => {
    assert.deepEqual(paddedBigrams('abc'), ['^a', 'ab', 'bc', 'c$']);
    assert.deepEqual(paddedBigrams(''), ['^$']);
  });
});
