// @ts-check
/**
 * The partner's hotel beside the proposal and each candidate, field by field, each reference value
 * marked as the engine's evidence judged it: agrees, partly, differs, or not known.
 */
import { decimal, distance, h } from './dom.js';

/** @import { components } from './api-types.js' */
/**
 * @typedef {components['schemas']['MappingBookEntry']['partner']} PartnerFacts the partner's hotel as a row or an entry gives it
 * @typedef {components['schemas']['MatchEvidence']} Evidence
 * @typedef {components['schemas']['Candidate']} Candidate
 * @typedef {components['schemas']['ReferenceHotel']} ReferenceHotel
 * @typedef {'agree' | 'partly' | 'differ' | 'unknown'} Mark
 * @typedef {{ label: string, key: string, id: string, name: string, score: number, evidence: Partial<Evidence>, detail?: ReferenceHotel }} Column
 */

const MARK_WORDS = { agree: 'agrees', partly: 'partly agrees', differ: 'differs', unknown: 'not compared' };
const MARK_SIGNS = { agree: '✓', partly: '≈', differ: '✗', unknown: '' };

/** @param {number | null | undefined} similarity @returns {Mark} */
const bySimilarity = (similarity) =>
  similarity === null || similarity === undefined ? 'unknown' : similarity >= 0.9 ? 'agree' : similarity >= 0.6 ? 'partly' : 'differ';
/** @param {boolean | null | undefined} match @returns {Mark} */
const byMatch = (match) => (match === null || match === undefined ? 'unknown' : match ? 'agree' : 'differ');
/** @param {number | null | undefined} meters @returns {Mark} */
const byDistance = (meters) =>
  meters === null || meters === undefined ? 'unknown' : meters <= 150 ? 'agree' : meters <= 1000 ? 'partly' : 'differ';

/**
 * @type {{ field: string, partner: (p: PartnerFacts) => string | undefined, reference: (c: Column) => string | undefined, mark: (c: Column) => Mark }[]}
 */
const FIELDS = [
  { field: 'Name', partner: (p) => p.name, reference: (c) => c.name, mark: (c) => bySimilarity(c.evidence.nameSimilarity) },
  {
    field: 'Address',
    partner: (p) => p.address,
    reference: (c) => c.detail?.metadata?.address,
    mark: (c) =>
      c.evidence.addressMatch
        ? 'agree'
        : c.evidence.addressSimilarity != null
          ? bySimilarity(c.evidence.addressSimilarity)
          : byMatch(c.evidence.addressMatch),
  },
  {
    field: 'Postal code',
    partner: (p) => p.postalCode,
    reference: (c) => c.detail?.metadata?.postalCode,
    mark: (c) => byMatch(c.evidence.postalCodeMatch),
  },
  { field: 'City', partner: (p) => p.city, reference: (c) => c.detail?.city, mark: (c) => byMatch(c.evidence.cityMatch) },
  {
    field: 'Country',
    partner: (p) => p.country,
    reference: (c) => c.detail?.metadata?.countryCode ?? c.detail?.country,
    mark: (c) => byMatch(c.evidence.countryMatch),
  },
];

/**
 * The reference hotel's codes at the organization's connected suppliers, as a line of text; none: nothing.
 * @param {Record<string, string> | undefined} codes
 */
export function supplierCodesLine(codes) {
  const pairs = Object.entries(codes ?? {});
  return pairs.length === 0
    ? null
    : h('p', { class: 'supplier-codes' }, `Supplier codes: ${pairs.map(([supplier, id]) => `${supplier} ${id}`).join(' · ')}`);
}

/**
 * @param {PartnerFacts} partner
 * @param {Column[]} columns the proposal first, then the candidates
 */
export function evidenceTable(partner, columns) {
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Field'),
    h('th', { scope: 'col', class: 'partner' }, 'Partner hotel'),
    columns.map((column) =>
      h(
        'th',
        { scope: 'col' },
        h('kbd', {}, column.key),
        ' ',
        column.label,
        h('div', { class: 'score' }, `score ${decimal(column.score)}`),
      ),
    ),
  );
  const rows = FIELDS.map(({ field, partner: ofPartner, reference, mark }) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, field),
      h('td', { class: 'partner' }, ofPartner(partner) ?? '–'),
      columns.map((column) => markedCell(reference(column) ?? (column.detail ? '–' : '…'), mark(column))),
    ),
  );
  rows.push(
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, 'Distance'),
      h(
        'td',
        { class: 'partner' },
        partner.latitude === undefined || partner.longitude === undefined
          ? 'no pin'
          : `pin ${partner.latitude.toFixed(5)}, ${partner.longitude.toFixed(5)}`,
      ),
      columns.map((column) => markedCell(distance(column.evidence.distanceMeters), byDistance(column.evidence.distanceMeters))),
    ),
  );
  return h('table', { class: 'evidence' }, h('caption', {}, 'Evidence, field by field'), h('thead', {}, head), h('tbody', {}, rows));
}

/** @param {string} text @param {Mark} mark */
function markedCell(text, mark) {
  return h(
    'td',
    { class: mark },
    text,
    mark === 'unknown'
      ? null
      : h('span', { class: 'mark', title: MARK_WORDS[mark] }, ` ${MARK_SIGNS[mark]}`, h('span', { class: 'sr' }, MARK_WORDS[mark])),
  );
}
