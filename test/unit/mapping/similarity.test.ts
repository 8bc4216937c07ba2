import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import { buildMatchingIndex } from '../../../shared/mapping/matching-index-builder';
import { compareNames, referenceNameView } from '../../../shared/mapping/name-comparison';
import { preparePartner } from '../../../shared/mapping/partner-row';
import {
  distanceMeters,
  signatureSimilarity,
  SIGNATURE_WORDS,
  tokenSimilarity,
  writeTrigramSignature,
} from '../../../shared/mapping/similarity';

describe('tokenSimilarity', () => {
  it('tolerates a typo in longer words but not in short ones', () => {
    assert.ok(tokenSimilarity('courtyard', 'cuortyard') > 0.85);
    assert.ok(tokenSimilarity('munchen', 'muenchen') > 0.85);
    assert.equal(tokenSimilarity('inn', 'ion'), 0);
  });
  it('accepts an abbreviation written as a prefix', () => {
    assert.equal(tokenSimilarity('conv', 'convention'), 0.7);
  });
  it('requires numbers to be equal', () => {
    assert.equal(tokenSimilarity('701', '704'), 0);
    assert.equal(tokenSimilarity('12', '12'), 1);
  });
});

describe('trigram signatures', () => {
  function signature(text: string): Uint32Array {
    const target = new Uint32Array(SIGNATURE_WORDS);
    writeTrigramSignature(text, target, 0);
    return target;
  }
  it('are alike for a misspelt name and unlike for another name', () => {
    const courtyard = signature('courtyarddenpasar');
    assert.ok(signatureSimilarity(courtyard, 0, signature('cuortyarddenpasar'), 0) > 0.6);
    assert.ok(signatureSimilarity(courtyard, 0, signature('lotusthairestaurant'), 0) < 0.3);
  });
});

describe('distanceMeters', () => {
  it('measures great-circle distance', () => {
    // One degree of latitude is about 111.2 km.
    assert.ok(Math.abs(distanceMeters(0, 0, 1, 0) - 111_195) < 50);
    assert.ok(Math.abs(distanceMeters(48.8566, 2.3522, 51.5074, -0.1278) - 343_500) < 2_000);
  });
});

describe('compareNames (IDF-weighted over the reference)', () => {
  const hotel = (id: string, name: string): ReferenceHotel => ({ id, name, supplierCodes: {} });
  // "Hotel" and "Paris" are everywhere; "Adlon" and "Lutetia" are rare.
  const reference = [
    hotel('1', 'Hotel Lutetia Paris'),
    hotel('2', 'Hotel Adlon Paris'),
    ...Array.from({ length: 40 }, (_, i) => hotel(`x${i}`, `Hotel Paris ${['Nord', 'Sud', 'Est', 'Ouest'][i % 4]} ${i}`)),
  ];
  const index = buildMatchingIndex(reference);
  const similarityTo = (partnerName: string, hotelIndex: number) =>
    compareNames(preparePartner(index, { id: 'p', name: partnerName }).name, referenceNameView(index, hotelIndex)).similarity;

  it('lets a shared rare word count more than shared common words', () => {
    // Shares only the rare word with hotel 0, only the common words with hotel 1.
    assert.ok(similarityTo('Lutetia', 0) > similarityTo('Hotel Paris', 1));
  });
  it('scores identical names 1 and word order does not matter', () => {
    assert.equal(similarityTo('Hotel Lutetia Paris', 0), 1);
    assert.equal(similarityTo('Paris Lutetia Hotel', 0), 1);
  });
  it('keeps most of the similarity through a typo in the rare word', () => {
    assert.ok(similarityTo('Hotel Lutetai Paris', 0) > 0.8);
  });
  it('matches words written together with words written apart', () => {
    assert.ok(similarityTo('Hotel LutetiaParis', 0) > 0.8);
  });
  it('treats accented, transliterated and other-script spellings as the same name', () => {
    assert.equal(similarityTo('HÔTEL LUTÉTIA PARÍS', 0), 1);
    assert.ok(similarityTo('Хотел Лутетиа Парис', 0) > 0.95);
  });
  it('flags a place inside or beside the other: only the qualifier agrees', () => {
    const compare = (a: string, b: string) =>
      compareNames(preparePartner(index, { id: 'p', name: a }).name, preparePartner(index, { id: 'q', name: b }).name);
    assert.equal(compare('Lutetia Paris', 'Bar @ Lutetia Paris').subPlace, true);
    assert.equal(compare('Bar @ Lutetia Paris', 'Lutetia Paris').subPlace, true);
    assert.equal(compare('Bus Stop 11141 (Lutetia Station)', 'Lutetia Station').subPlace, true);
    // The head agrees: the qualifier only says where.
    assert.equal(compare('Adlon @ Lutetia', 'Adlon').subPlace, false);
    // A head of generic words only ("Hotel at ...") says nothing about which place it is.
    assert.equal(compare('Hotel at Lutetia', 'Lutetia').subPlace, false);
  });
  it('weighs a qualifier only one name has at a quarter', () => {
    const withQualifier = similarityTo('Hotel Lutetia Paris (Rive Gauche)', 0);
    const withWords = similarityTo('Hotel Lutetia Paris Rive Gauche', 0);
    assert.ok(withQualifier > withWords + 0.1, `${withQualifier} vs ${withWords}`);
    assert.ok(withQualifier < 1);
  });
  it('flags names whose numbers disagree', () => {
    const a = preparePartner(index, { id: 'p', name: 'Blk 701 Tampines' }).name;
    const b = preparePartner(index, { id: 'q', name: 'Blk 704 Tampines' }).name;
    assert.equal(compareNames(a, b).numberConflict, true);
    assert.equal(compareNames(a, a).numberConflict, false);
  });
});
