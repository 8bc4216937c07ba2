/** The engine's answers as the API documents them (jobs' results and the mapping book's entries). */
import * as v from 'valibot';
import { documentedAs, Text, Uuid } from '../platform/http/schemas';
import { SEARCH_MAX_SUPPLIERS } from './answer-search';

/** A job's or the book's evidence for a proposal, as the API shows it. */
export const MatchEvidenceSchema = v.object({
  nameSimilarity: v.number(),
  distanceMeters: v.nullable(v.number()),
  addressMatch: v.nullable(v.boolean()),
  addressSimilarity: v.nullable(v.number()),
  postalCodeMatch: v.nullable(v.boolean()),
  cityMatch: v.nullable(v.boolean()),
  countryMatch: v.nullable(v.boolean()),
});

/** Another hotel the engine weighed, as the API shows it: the same evidence as a proposal. */
const laterEvidence = (description: string) =>
  v.optional(v.pipe(v.nullable(v.boolean()), v.description(`${description}; absent on rows mapped before candidates carried it`)));

export const CandidateSchema = v.object({
  referenceHotelId: v.string(),
  referenceHotelName: v.string(),
  score: v.number(),
  nameSimilarity: v.number(),
  distanceMeters: v.nullable(v.number()),
  addressMatch: laterEvidence('Same street and house number as the partner hotel, as for a proposal (null: an address missing)'),
  addressSimilarity: v.optional(
    v.pipe(
      v.nullable(v.number()),
      v.description('How alike the addresses are, 0 to 1 (null: an address missing); absent on rows mapped before candidates carried it'),
    ),
  ),
  postalCodeMatch: laterEvidence('Same postal code (null: one missing)'),
  cityMatch: laterEvidence('Same city (null: one missing)'),
  countryMatch: laterEvidence('Same country (null: one missing)'),
});

/** The reference hotel's place and supplier codes, as results, entries and find-match answers show them beside its id and name. */
export const referenceHotelFactFields = {
  referenceHotelCity: v.pipe(
    v.nullable(v.string()),
    v.description("The reference hotel's city, as the reference spells it; null when unknown or there is no hotel"),
    v.examples(['Paris']),
  ),
  referenceHotelCountryCode: v.pipe(
    v.nullable(v.string()),
    v.description("The reference hotel's country, ISO 3166-1 alpha-2; null when unknown or there is no hotel"),
    v.examples(['FR']),
  ),
  supplierCodes: v.pipe(
    v.record(v.string(), v.string()),
    v.description(
      "The reference hotel's ids at the suppliers your organization is connected to when you read (supplier code -> that supplier's hotel id), " +
        'from the reference publication the answer was made against (and kept current in the mapping book); an empty object when there is no hotel or it has none. ' +
        'A supplier you disconnect no longer appears.',
    ),
    v.examples([{ HOTELBEDS: '12345', EXPEDIA: '998877' }]),
  ),
};

/** The search parameters of a job's results and the book's entries (answer-search.ts). */
export const answerSearchFields = {
  name: v.optional(
    v.pipe(
      Text({ maxLength: 200 }),
      v.description(
        "Search: the partner hotel's name or the reference hotel's name contains this, ignoring case, accents and punctuation ('ritz' finds \"Hôtel Ritz Paris\")",
      ),
      v.examples(['ritz']),
    ),
  ),
  city: v.optional(
    v.pipe(
      Text({ maxLength: 200 }),
      v.description("Search: the partner hotel's city is this one, ignoring case, accents and punctuation"),
      v.examples(['Paris']),
    ),
  ),
  country: v.optional(
    v.pipe(
      Text({ maxLength: 100 }),
      v.description("Search: the partner hotel's country is this one (an ISO 3166-1 code or a country's name)"),
      v.examples(['FR']),
    ),
  ),
  referenceHotelId: v.optional(
    v.pipe(
      Uuid,
      v.description('Search: the reference hotel (matched or proposed) is this one'),
      v.examples(['3f1c9a2e-8b7d-4c65-9e21-5a0b7d3c8f14']),
    ),
  ),
  supplier: v.optional(
    v.pipe(
      Text({ maxLength: 1000 }),
      v.description(
        `Search: the reference hotel has a code at any of these connected suppliers (1 to ${SEARCH_MAX_SUPPLIERS} supplier codes, comma-separated)`,
      ),
      v.examples(['EXPEDIA,AGODA']),
    ),
  ),
};

export const SearchTotal = v.pipe(
  v.number(),
  v.description('With a search parameter: how many match in all (every page tells it)'),
  v.examples([42]),
);

/** A score given as a query parameter: 0 to 1, at most 4 decimals. */
export const ScoreParam = v.pipe(
  v.string(),
  documentedAs({ type: 'number', minimum: 0, maximum: 1 }),
  v.regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, 'must be a number from 0 to 1 (at most 4 decimals)'),
  v.transform(Number),
);
