/**
 * Fits the scoring model's log-likelihood ratios (FEATURE_WEIGHTS in shared/mapping/scoring.ts)
 * as a conditional logit with a "none of them" option, which is exactly how the matcher turns
 * candidate log-odds into a probability: P(candidate i) = e^s_i / (1 + sum_j e^s_j).
 *
 * Training data: the candidates the matcher's blocking finds for (a) a synthetic hotel set drawn
 * with a different seed from the benchmark's, damaged by partner-damage.ts, and (b) the labelled
 * Singapore POI set. Only general evidence features are used (no names, ids or places), with an
 * L2 pull towards the hand-set prior. Singapore is scored by 5-fold cross-validation (folds by
 * partner row; each fold's model never sees its rows) and the synthetic set by a second,
 * held-out synthetic sample. Prints the figures and the weights fitted on everything.
 *   npx tsx test/bench/mapping-calibrate.ts [--reference 300000 --partners 30000]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { textAt } from '../../shared/mapping/columns';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';
import { buildMatchingIndex, HotelMatcher, readPartnerInventory, readReferenceInventory, type InventoryRow, type MatchingIndex } from '../../shared/mapping';
import { candidateFeatures, FEATURE_COUNT, FEATURE_NAMES, FEATURE_WEIGHTS } from '../../shared/mapping/scoring';
import { readTabular } from '../../shared/platform/files/tabular';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { BenchRandom, damagedPartnerRow, lookAlikeHotel } from './partner-damage';

const { values: args } = parseArgs({
  options: {
    reference: { type: 'string', default: '300000' },
    partners: { type: 'string', default: '30000' },
    l2: { type: 'string', default: '0.02' },
    // Fit on the synthetic hotels only and use Singapore purely as a check.
    'synthetic-only': { type: 'boolean', default: false },
  },
});

/** One partner row: its candidates' features (row-major), which candidates are right, and whether it has a true match at all. */
interface Group {
  features: Float64Array;
  count: number;
  truth: Uint8Array;
  hasMatch: boolean;
  fold: number;
}

function collect(index: MatchingIndex, partners: readonly PartnerHotel[], truthOf: (id: string) => ReadonlySet<string> | undefined, folds: number): Group[] {
  const matcher = new HotelMatcher(index, { mode: 'STANDARD' });
  const groups: Group[] = [];
  partners.forEach((partner, row) => {
    const match = matcher.matchRow(partner);
    const truth = truthOf(partner.id);
    const count = match.scored.length;
    const group: Group = { features: new Float64Array(count * FEATURE_COUNT), count, truth: new Uint8Array(count), hasMatch: (truth?.size ?? 0) > 0, fold: row % folds };
    const buffer = new Float64Array(FEATURE_COUNT);
    match.scored.forEach((candidate, k) => {
      candidateFeatures(index, match.partner, candidate.hotel, buffer);
      group.features.set(buffer, k * FEATURE_COUNT);
      group.truth[k] = truth?.has(textAt(index.data.ids, candidate.hotel)) ? 1 : 0;
    });
    groups.push(group);
  });
  return groups;
}

/** Weights frozen at the prior: features the training sets cannot inform. */
const FROZEN = new Set(['countryMismatch']);

function fit(groups: readonly Group[], prior: Float64Array, l2: number, iterations = 400): Float64Array {
  const weights = prior.slice();
  const m = new Float64Array(FEATURE_COUNT);
  const v = new Float64Array(FEATURE_COUNT);
  const gradient = new Float64Array(FEATURE_COUNT);
  const scores = new Float64Array(64);
  const usable = groups.filter((group) => !group.hasMatch || group.truth.includes(1));
  for (let step = 1; step <= iterations; step++) {
    gradient.fill(0);
    for (const group of usable) {
      let total = 1;
      let right = 0;
      for (let k = 0; k < group.count; k++) {
        let s = 0;
        for (let f = 0; f < FEATURE_COUNT; f++) s += group.features[k * FEATURE_COUNT + f]! * weights[f]!;
        scores[k] = Math.exp(Math.min(30, s));
        total += scores[k]!;
        if (group.truth[k]) right += scores[k]!;
      }
      // d log-likelihood / d s_k = [k right] p_k / P(right) - p_k, with P(right) the none option for unmatched rows.
      for (let k = 0; k < group.count; k++) {
        const p = scores[k]! / total;
        const coefficient = (group.hasMatch ? (group.truth[k] ? scores[k]! / right : 0) : 0) - p;
        if (coefficient === 0) continue;
        for (let f = 0; f < FEATURE_COUNT; f++) gradient[f]! += coefficient * group.features[k * FEATURE_COUNT + f]!;
      }
    }
    for (let f = 0; f < FEATURE_COUNT; f++) {
      if (FROZEN.has(FEATURE_NAMES[f]!)) continue;
      const g = -gradient[f]! / usable.length + l2 * (weights[f]! - prior[f]!);
      m[f] = 0.9 * m[f]! + 0.1 * g;
      v[f] = 0.999 * v[f]! + 0.001 * g * g;
      const mHat = m[f]! / (1 - 0.9 ** step);
      const vHat = v[f]! / (1 - 0.999 ** step);
      weights[f]! -= (0.05 * mHat) / (Math.sqrt(vHat) + 1e-8);
    }
  }
  return weights;
}

/** MATCHED = best candidate's probability >= threshold; precision / recall / F1 over the groups. */
function evaluate(groups: readonly Group[], weights: Float64Array, threshold = 0.75) {
  let matched = 0;
  let correct = 0;
  let labelled = 0;
  for (const group of groups) {
    if (group.hasMatch) labelled += 1;
    let total = 1;
    let best = -1;
    let bestScore = 0;
    for (let k = 0; k < group.count; k++) {
      let s = 0;
      for (let f = 0; f < FEATURE_COUNT; f++) s += group.features[k * FEATURE_COUNT + f]! * weights[f]!;
      const e = Math.exp(Math.min(30, s));
      total += e;
      if (e > bestScore) {
        bestScore = e;
        best = k;
      }
    }
    if (best >= 0 && bestScore / total >= threshold) {
      matched += 1;
      if (group.truth[best]) correct += 1;
    }
  }
  const precision = matched ? correct / matched : 0;
  const recall = labelled ? correct / labelled : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

const show = (metrics: { precision: number; recall: number; f1: number }) =>
  `precision ${metrics.precision.toFixed(4)} recall ${metrics.recall.toFixed(4)} F1 ${metrics.f1.toFixed(4)}`;

async function load<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  for await (const row of rows) if (!('error' in row)) hotels.push(row.hotel);
  return hotels;
}

function syntheticGroups(seed: number): Group[] {
  const referenceCount = Number(args.reference);
  const partnerCount = Number(args.partners);
  const random = new BenchRandom(seed);
  const partners: PartnerHotel[] = [];
  const truth = new Map<string, Set<string>>();
  const noMatch = Math.round(partnerCount * 0.1);
  function* reference(): Generator<ReferenceHotel> {
    let index = 0;
    for (const hotel of generateReferenceHotels({ count: referenceCount + noMatch, seed })) {
      if (index++ >= referenceCount) {
        partners.push(damagedPartnerRow(random, hotel, `N-${partners.length}`));
        continue;
      }
      yield hotel;
      if (random.chance((partnerCount - noMatch) / referenceCount)) {
        const row = damagedPartnerRow(random, hotel, `P-${partners.length}`);
        partners.push(row);
        truth.set(row.id, new Set([hotel.id]));
        if (random.chance(0.1)) yield lookAlikeHotel(random, hotel, `L-${index}`);
      }
    }
  }
  const index = buildMatchingIndex(reference());
  return collect(index, partners, (id) => truth.get(id), 1);
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDirectory = path.resolve(repoRoot, '../shared/data/poi-matching-singapore');
const file = (name: string) => readFileSync(path.join(dataDirectory, name));
const singaporeTruth = new Map<string, Set<string>>();
for await (const row of readTabular(file('truth.csv'), 'csv')) {
  if ('error' in row) continue;
  const { partnerId, referenceId } = row.record as { partnerId: string; referenceId: string };
  singaporeTruth.set(partnerId, (singaporeTruth.get(partnerId) ?? new Set()).add(referenceId));
}
const FOLDS = 5;
const singapore = collect(
  buildMatchingIndex(await load(readReferenceInventory(file('reference.csv'), 'csv'))),
  await load(readPartnerInventory(file('partner.csv'), 'csv')),
  (id) => singaporeTruth.get(id),
  FOLDS,
);
const synthetic = syntheticGroups(7);
const syntheticCheck = syntheticGroups(11);
const l2 = Number(args.l2);
console.log(`groups: Singapore ${singapore.length}, synthetic ${synthetic.length} (+ ${syntheticCheck.length} held out); L2 ${l2}`);
console.log(`hand-set weights: Singapore ${show(evaluate(singapore, FEATURE_WEIGHTS))}; synthetic held-out ${show(evaluate(syntheticCheck, FEATURE_WEIGHTS))}`);

// Cross-validated Singapore figures: every fold scored by a model fitted without it.
const thresholds = [0.5, 0.6, 0.7, 0.75, 0.8, 0.9];
const pooled = thresholds.map(() => ({ matched: 0, correct: 0 }));
for (let fold = 0; fold < FOLDS; fold++) {
  const weights = fit(args['synthetic-only'] ? synthetic : [...synthetic, ...singapore.filter((group) => group.fold !== fold)], FEATURE_WEIGHTS, l2);
  const held = singapore.filter((group) => group.fold === fold);
  console.log(`fold ${fold}: held-out Singapore ${show(evaluate(held, weights))}`);
  thresholds.forEach((threshold, t) => {
    for (const group of held) {
      const single = evaluate([group], weights, threshold);
      if (single.precision > 0 || (single.recall === 0 && evaluateMatched(group, weights, threshold))) pooled[t]!.matched += 1;
      if (single.precision > 0) pooled[t]!.correct += 1;
    }
  });
}
function evaluateMatched(group: Group, weights: Float64Array, threshold: number): boolean {
  let total = 1;
  let best = 0;
  for (let k = 0; k < group.count; k++) {
    let s = 0;
    for (let f = 0; f < FEATURE_COUNT; f++) s += group.features[k * FEATURE_COUNT + f]! * weights[f]!;
    const e = Math.exp(Math.min(30, s));
    total += e;
    best = Math.max(best, e);
  }
  return group.count > 0 && best / total >= threshold;
}
const labelled = singapore.filter((group) => group.hasMatch).length;
thresholds.forEach((threshold, t) => {
  const { matched, correct } = pooled[t]!;
  const precision = correct / matched;
  const recall = correct / labelled;
  console.log(`5-fold Singapore at threshold ${threshold}: precision ${precision.toFixed(4)} recall ${recall.toFixed(4)} F1 ${((2 * precision * recall) / (precision + recall)).toFixed(4)}`);
});

const final = fit(args['synthetic-only'] ? synthetic : [...synthetic, ...singapore], FEATURE_WEIGHTS, l2);
console.log(`fitted on all: synthetic held-out ${show(evaluate(syntheticCheck, final))}; Singapore (in-sample) ${show(evaluate(singapore, final))}`);
console.log('weights:');
console.log(FEATURE_NAMES.map((name, f) => `${name} ${FEATURE_WEIGHTS[f]!.toFixed(2)} -> ${final[f]!.toFixed(2)}`).join('\n'));
console.log(`[${Array.from(final, (w) => w.toFixed(2)).join(', ')}]`);
