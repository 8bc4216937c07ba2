/** The engine's answers as the API documents them (jobs' results and the mapping book's entries). */
import * as v from 'valibot';

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

