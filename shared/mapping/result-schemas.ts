/** The engine's answers as the API documents them (jobs' results and the mapping book's entries). */
import * as v from 'valibot';
import { documentedAs } from '../platform/http/schemas';

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

/** Another hotel the engine weighed, as the API shows it. */
export const CandidateSchema = v.object({
  referenceHotelId: v.string(),
  referenceHotelName: v.string(),
  score: v.number(),
  nameSimilarity: v.number(),
  distanceMeters: v.nullable(v.number()),
});

/** The reference hotel's place and supplier codes, as results, entries and find-match answers show them beside its id and name. */
export const referenceHotelFactFields = {
  referenceHotelCity: v.pipe(v.nullable(v.string()), v.description("The reference hotel's city, as the reference spells it; null when unknown or there is no hotel"), v.examples(['Paris'])),
  referenceHotelCountryCode: v.pipe(v.nullable(v.string()), v.description("The reference hotel's country, ISO 3166-1 alpha-2; null when unknown or there is no hotel"), v.examples(['FR'])),
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

/** A score given as a query parameter: 0 to 1, at most 4 decimals. */
export const ScoreParam = v.pipe(
  v.string(),
  documentedAs({ type: 'number', minimum: 0, maximum: 1 }),
  v.regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, 'must be a number from 0 to 1 (at most 4 decimals)'),
  v.transform(Number),
);
