import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { toCountryCode } from '../../../shared/mapping/countries';
import { addressParts, nameParts, nameTokens, normalizePostalCode, tokenKind } from '../../../shared/mapping/text';

describe('nameTokens', () => {
  it('canonicalises abbreviations, plurals and number words', () => {
    assert.deepEqual(nameTokens('St. Regis Intl Apts'), ['saint', 'regis', 'international', 'apartment']);
    assert.deepEqual(nameTokens('Hotel Centre First'), nameTokens('Htl Center 1st'));
    assert.deepEqual(nameTokens('Suites Two'), ['suite', '2']);
  });
  it('joins initials written apart into one word', () => {
    assert.deepEqual(nameTokens('R.K. Eating House'), nameTokens('RK Eating House'));
    assert.deepEqual(nameTokens("Hôtel l'Europe"), ['hotel', 'l', 'europe']);
  });
  it('reads common abbreviations of place words', () => {
    assert.deepEqual(nameTokens('Blk 6 Admin Bldg'), ['block', '6', 'admin', 'building']);
  });
  it('drops repeated words', () => {
    assert.deepEqual(nameTokens('Hotel Hotel Rex'), ['hotel', 'rex']);
  });
  it('classifies words so generic and stop words can weigh little', () => {
    assert.equal(tokenKind('hotel'), 'generic');
    assert.equal(tokenKind('resort'), 'generic');
    assert.equal(tokenKind('the'), 'stop');
    assert.equal(tokenKind('701'), 'number');
    assert.equal(tokenKind('adlon'), 'distinctive');
  });
});

describe('nameParts', () => {
  it('marks the words after "@", " at " or in parentheses as the qualifier', () => {
    assert.deepEqual(nameParts('Gym @ Civil Service Club'), { tokens: ['gym', 'civil', 'service', 'club'], qualifierMask: 0b1110 });
    assert.deepEqual(nameParts('Pitch at Bedok School'), { tokens: ['pitch', 'bedok', 'school'], qualifierMask: 0b110 });
    assert.deepEqual(nameParts('Ngee Ann Polytechnic (NP)'), { tokens: ['ngee', 'ann', 'polytechnic', 'np'], qualifierMask: 0b1000 });
  });
  it('keeps names without a head whole, and "at" inside a word is no qualifier', () => {
    assert.deepEqual(nameParts('@ Orchard'), { tokens: ['orchard'], qualifierMask: 0 });
    assert.deepEqual(nameParts('Atrium Hotel'), { tokens: ['atrium', 'hotel'], qualifierMask: 0 });
    assert.deepEqual(nameParts('Hotel Adlon'), { tokens: ['hotel', 'adlon'], qualifierMask: 0 });
  });
  it('gives a word found in the head and in the qualifier to the head', () => {
    assert.deepEqual(nameParts('Club Bar @ Club Road'), { tokens: ['club', 'bar', 'road'], qualifierMask: 0b100 });
  });
});

describe('addressParts', () => {
  it('keeps street words and house numbers, whatever the order and abbreviations', () => {
    assert.deepEqual(addressParts('Lower Kent Ridge Rd., 20'), { words: ['kent', 'ridge'], numbers: ['20'] });
    assert.deepEqual(addressParts('20 Lower Kent Ridge Road'), addressParts('Lower Kent Ridge Road 20'));
  });
  it('drops unit numbers and splits number ranges', () => {
    assert.deepEqual(addressParts('#01-61 China Square, 76-78 Serangoon Rd'), { words: ['china', 'serangoon'], numbers: ['76', '78'] });
  });
  it('reduces German street compounds to their distinctive part', () => {
    assert.deepEqual(addressParts('Hauptstraße 5').words, addressParts('Hauptstr. 5').words);
  });
});

describe('normalizePostalCode', () => {
  it('ignores spaces, dashes and case', () => {
    assert.equal(normalizePostalCode('sw1a 1aa'), 'SW1A1AA');
    assert.equal(normalizePostalCode('10001-1234'), '100011234');
    assert.equal(normalizePostalCode(undefined), '');
  });
});

describe('toCountryCode', () => {
  it('makes names in several languages, alpha-2 and alpha-3 codes equal', () => {
    for (const written of ['DE', 'de', 'DEU', 'Germany', 'Deutschland', 'Allemagne']) assert.equal(toCountryCode(written), 'DE', written);
    assert.equal(toCountryCode('United Kingdom'), 'GB');
    assert.equal(toCountryCode('UK'), 'GB');
    assert.equal(toCountryCode('USA'), 'US');
  });
  it('returns undefined for empty or unknown countries', () => {
    assert.equal(toCountryCode(''), undefined);
    assert.equal(toCountryCode('Atlantis'), undefined);
  });
});
