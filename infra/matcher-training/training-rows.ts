/**
 * What the match model learns from: every partner row of a labelled set run through the engine's
 * own blocking and ranking, and the feature vectors of its assessed candidates (the engine's
 * MatchDecision writes them, so training and serving read the same figures), each labelled by
 * whether the pair is a labelled match.
 */
import { buildMatchingIndex, type MatchingIndex, type PartnerHotel } from '../../shared/mapping';
import { textAt } from '../../shared/mapping/columns';
import { ASSESSED_CANDIDATES, DECISION_FEATURES, untrainedModel } from '../../shared/mapping/match-decision';
import { HotelMatcher } from '../../shared/mapping/matcher';
import { preparePartner } from '../../shared/mapping/partner-row';
import type { LabelledSet } from './labelled-sets';

export interface TrainingRow {
  input: PartnerHotel;
  /** The assessed candidates' reference ids, best evidence first. */
  referenceIds: string[];
  vectors: Float64Array[];
  /** 1 when the candidate is a labelled match of the row. */
  labels: number[];
  /** The row has a labelled match (whether or not blocking found it). */
  labelled: boolean;
  /** onePlace[i][j]: assessed candidates i and j are one place listed twice in the reference. */
  onePlace: readonly (readonly boolean[])[];
}

export interface TrainingSet {
  /** The labelled set the rows come from. */
  name: string;
  variant: TrainingVariant;
  index: MatchingIndex;
  rows: TrainingRow[];
  truth: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A labelled set's rows as given, or with the partner's pins removed (what the model learns rows without a pin from); or the synthetic hotels. */
export type TrainingVariant = 'as given' | 'without pins' | 'synthetic';

/**
 * The set's rows, their candidates and feature vectors. Features named in `without` are blanked
 * (missing for every row), which is how a feature's worth is measured: fit without it, compare.
 */
export function trainingSetOf(
  set: LabelledSet,
  variant: TrainingVariant = 'as given',
  index: MatchingIndex = buildMatchingIndex(set.reference),
  without: readonly string[] = [],
): TrainingSet {
  const blanked = without.map((name) => {
    const position = DECISION_FEATURES.indexOf(name as (typeof DECISION_FEATURES)[number]);
    if (position < 0) throw new Error(`${name} is not a feature: ${DECISION_FEATURES.join(', ')}`);
    return position;
  });
  const partners = variant === 'without pins' ? set.partners.map(({ lat: _lat, lon: _lon, ...rest }) => rest) : set.partners;
  // Features do not depend on the model.
  const matcher = new HotelMatcher(index, { mode: 'STANDARD' }, untrainedModel());
  const buffers = Array.from({ length: ASSESSED_CANDIDATES }, () => new Float64Array(DECISION_FEATURES.length));
  const rows = partners.map((input): TrainingRow => {
    const { partner, ranked, outlets } = matcher.candidates(preparePartner(index, input));
    const vectors = matcher.decision.featureVectors(partner, ranked, outlets, buffers).map((vector) => Float64Array.from(vector));
    for (const vector of vectors) for (const position of blanked) vector[position] = Number.NaN;
    const referenceIds = ranked.slice(0, vectors.length).map((candidate) => textAt(index.data.ids, candidate.hotel));
    const truth = set.truth.get(input.id);
    const onePlace = matcher.decision.onePlace(vectors.length);
    return {
      input,
      referenceIds,
      vectors,
      labels: referenceIds.map((id) => (truth?.has(id) ? 1 : 0)),
      labelled: truth !== undefined && truth.size > 0,
      onePlace,
    };
  });
  return { name: set.name, variant, index, rows, truth: set.truth };
}
