/**
 * Searching the engine's answers as partners hold them (a job's results, the mapping book's
 * entries): a name either hotel's name contains, the partner hotel's city and country, its id, the
 * reference hotel's id, a supplier the hotel has a code at. `answerMatches` is the rule on one
 * answer; at scale the same rule runs on answer columns, a line of text per answer and field
 * (platform/text-lines.ts), where indexOf finds a text in every answer at once.
 */
import { invalidInput } from '../platform/errors';
import { foldText } from '../platform/text';
import { markLinesContaining, textLinesFrom, textLinesOf, type TextLines } from '../platform/text-lines';
import { toCountryCode } from './countries';
import { hasCodeAtAny } from './reference-facts';

/** What a search asks for, normalized: each field absent when not asked. */
export interface AnswerSearch {
  /** Folded (foldText): a text the partner hotel's name or the reference hotel's name contains once folded. */
  name?: string;
  /** Folded: the partner hotel's city, folded, is this. */
  city?: string;
  /** ISO 3166-1 alpha-2: the partner hotel's country is this one. */
  country?: string;
  /** The partner hotel id is this one, as the inventory gave it. */
  partnerHotelId?: string;
  /** Lower case: the answer's reference hotel. */
  referenceHotelId?: string;
  /** Upper case: the reference hotel has a code at one of these suppliers. */
  suppliers?: string[];
}

/** The search parameters of a query, as the API takes them. */
export interface AnswerSearchQuery {
  name?: string;
  city?: string;
  country?: string;
  referenceHotelId?: string;
  supplier?: string;
}

/** How many suppliers one search may name. */
export const SEARCH_MAX_SUPPLIERS = 20;

/**
 * The search a query asks for, or undefined when it asks none; 400 for a name with nothing to
 * search, a country no one knows, or a supplier the organization is not connected to (`connected`:
 * those it is: only their codes are shown).
 */
export function answerSearchOf(query: AnswerSearchQuery, connected: readonly string[]): Omit<AnswerSearch, 'partnerHotelId'> | undefined {
  const search: Omit<AnswerSearch, 'partnerHotelId'> = {};
  if (query.name !== undefined) {
    search.name = foldText(query.name);
    if (search.name === '') throw invalidInput('name: give at least one letter or digit to search for.');
  }
  if (query.city !== undefined) {
    search.city = foldText(query.city);
    if (search.city === '') throw invalidInput('city: give at least one letter or digit.');
  }
  if (query.country !== undefined) {
    search.country = toCountryCode(query.country);
    if (search.country === undefined)
      throw invalidInput(`country: "${query.country}" is not a country (an ISO 3166-1 code such as FR, or a name such as France).`);
  }
  if (query.referenceHotelId !== undefined) search.referenceHotelId = query.referenceHotelId.toLowerCase();
  if (query.supplier !== undefined) {
    const asked = [...new Set(query.supplier.split(',').map((code) => code.trim().toUpperCase()))];
    if (asked.some((code) => code === '') || asked.length > SEARCH_MAX_SUPPLIERS) {
      throw invalidInput(`supplier: give 1 to ${SEARCH_MAX_SUPPLIERS} supplier codes separated by commas, such as HOTELBEDS,EXPEDIA.`);
    }
    const shown = new Set(connected.map((code) => code.toUpperCase()));
    const unknown = asked.filter((code) => !shown.has(code));
    if (unknown.length > 0)
      throw invalidInput(
        `supplier: your organization is not connected to ${unknown.join(', ')}; answers show the codes of connected suppliers only.`,
      );
    search.suppliers = asked;
  }
  return Object.keys(search).length === 0 ? undefined : search;
}

/** What a search reads of an answer. */
export interface SearchedAnswer {
  partnerHotelId: string;
  partnerHotelName: string;
  partnerCity?: string;
  partnerCountry?: string;
  referenceHotelId: string | null;
  referenceHotelName: string | null;
  supplierCodes?: Record<string, string>;
}

/** The text a name search looks in: both names folded, a tab between (a folded search holds none). */
const namesOf = (answer: SearchedAnswer) =>
  `${foldText(answer.partnerHotelName)}\t${answer.referenceHotelName ? foldText(answer.referenceHotelName) : ''}`;
const cityOf = (answer: SearchedAnswer) => foldText(answer.partnerCity ?? '');
const countryOf = (answer: SearchedAnswer) => toCountryCode(answer.partnerCountry) ?? '';
/** The suppliers the hotel has a code at, each between spaces (a supplier code holds none). */
const suppliersOf = (answer: SearchedAnswer) => ` ${Object.keys(answer.supplierCodes ?? {}).join(' ')} `;

/** Whether an answer is one the search asks for. */
export function answerMatches(answer: SearchedAnswer, search: AnswerSearch): boolean {
  return (
    (search.name === undefined || namesOf(answer).includes(search.name)) &&
    (search.city === undefined || cityOf(answer) === search.city) &&
    (search.country === undefined || countryOf(answer) === search.country) &&
    (search.partnerHotelId === undefined || answer.partnerHotelId === search.partnerHotelId) &&
    (search.referenceHotelId === undefined || answer.referenceHotelId === search.referenceHotelId) &&
    (search.suppliers === undefined || hasCodeAtAny(answer.supplierCodes, search.suppliers))
  );
}

/** Answers as searches read them, in their order: a line per answer and field. */
export interface AnswerColumns {
  partnerIds: TextLines;
  names: TextLines;
  cities: TextLines;
  countries: TextLines;
  referenceIds: TextLines;
  suppliers: TextLines;
}

const FIELDS = ['partnerIds', 'names', 'cities', 'countries', 'referenceIds', 'suppliers'] as const;

export function answerColumnsOf(answers: readonly SearchedAnswer[]): AnswerColumns {
  return {
    partnerIds: textLinesOf(answers.map((answer) => answer.partnerHotelId)),
    names: textLinesOf(answers.map(namesOf)),
    cities: textLinesOf(answers.map(cityOf)),
    countries: textLinesOf(answers.map(countryOf)),
    referenceIds: textLinesOf(answers.map((answer) => answer.referenceHotelId ?? '')),
    suppliers: textLinesOf(answers.map(suppliersOf)),
  };
}

/** The columns' texts, as they are stored (their line starts are found again on reading). */
export function answerColumnTexts(columns: AnswerColumns): Record<(typeof FIELDS)[number], string> {
  return Object.fromEntries(FIELDS.map((field) => [field, columns[field].text])) as Record<(typeof FIELDS)[number], string>;
}

export function answerColumnsFrom(texts: Record<string, string>, rows: number): AnswerColumns {
  return Object.fromEntries(FIELDS.map((field) => [field, textLinesFrom(texts[field]!, rows)])) as unknown as AnswerColumns;
}

/**
 * Each answer's marks, a bit per field the search asks for, and the marks of an answer that has them
 * all: found by indexOf over every answer at once. Undefined when the search asks for none.
 */
export function answerMarks(columns: AnswerColumns, rows: number, search: AnswerSearch): { marks: Uint8Array; all: number } | undefined {
  const asked: [TextLines, string[]][] = [];
  if (search.name !== undefined) asked.push([columns.names, [search.name]]);
  if (search.city !== undefined) asked.push([columns.cities, [`\n${search.city}\n`]]);
  if (search.country !== undefined) asked.push([columns.countries, [`\n${search.country}\n`]]);
  if (search.partnerHotelId !== undefined) asked.push([columns.partnerIds, [`\n${search.partnerHotelId}\n`]]);
  if (search.referenceHotelId !== undefined) asked.push([columns.referenceIds, [`\n${search.referenceHotelId}\n`]]);
  if (search.suppliers !== undefined) asked.push([columns.suppliers, search.suppliers.map((supplier) => ` ${supplier} `)]);
  if (asked.length === 0) return undefined;
  const marks = new Uint8Array(rows);
  asked.forEach(([lines, texts], field) => {
    for (const text of texts) markLinesContaining(lines, text, marks, 1 << field);
  });
  return { marks, all: (1 << asked.length) - 1 };
}
