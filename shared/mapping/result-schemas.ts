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


/** A score given as a query parameter: 0 to 1, at most 4 decimals. */
export const ScoreParam = v.pipe(
  v.string(),
  documentedAs({ type: 'number', minimum: 0, maximum: 1 }),
  v.regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, 'must be a number from 0 to 1 (at most 4 decimals)'),
  v.transform(Number),
);
