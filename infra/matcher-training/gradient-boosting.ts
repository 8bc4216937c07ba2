/**
 * Gradient-boosted decision trees for a yes/no target (logistic loss, Newton steps), small and
 * deterministic: features are cut into at most `bins` quantile bins once, each tree grows depth-
 * wise on gradient histograms, and a missing value (NaN) goes the way that gains most at each
 * split, as in XGBoost. Rows are subsampled per tree with a seeded generator, so the same data
 * and options always give the same model.
 */
import { SeededRandom } from '../synthetic/prng';
import type { BoostedTrees, Tree } from '../../shared/mapping/boosted-trees';

export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** L2 pull of every leaf value towards 0 (XGBoost's lambda). */
  l2: number;
  /** Smallest sum of hessians (p(1-p)) a leaf may hold (XGBoost's min_child_weight). */
  minLeafWeight: number;
  /** Share of rows each tree sees. */
  subsample: number;
  bins: number;
  seed: number;
}

export const DEFAULT_BOOSTING: BoostingOptions = {
  trees: 200,
  depth: 4,
  learningRate: 0.1,
  l2: 1,
  minLeafWeight: 2,
  subsample: 0.8,
  bins: 64,
  seed: 1,
};

/** Training rows, one feature vector each (NaN: missing), their 0/1 labels and optional weights. */
export interface TrainingData {
  features: readonly Float64Array[];
  labels: Uint8Array;
  weights?: Float64Array;
}

const MISSING_BIN = 255;
/** Significant digits kept of leaf values and thresholds: a small file, and thresholds still between the values they split. */
const LEAF_DIGITS = 6;
const THRESHOLD_DIGITS = 9;

export function trainBoostedTrees(
  data: TrainingData,
  featureNames: readonly string[],
  options: BoostingOptions = DEFAULT_BOOSTING,
): BoostedTrees {
  const rows = data.labels.length;
  const featureCount = featureNames.length;
  if (options.bins > MISSING_BIN) throw new Error(`at most ${MISSING_BIN} bins`);
  const cuts = featureCuts(data.features, featureCount, options.bins);
  const binned = binRows(data.features, cuts);
  const weights = data.weights ?? new Float64Array(rows).fill(1);
  let positive = 0;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    positive += data.labels[r]! * weights[r]!;
    total += weights[r]!;
  }
  const prior = Math.min(Math.max(positive / total, 1e-6), 1 - 1e-6);
  const base = Number(Math.log(prior / (1 - prior)).toPrecision(LEAF_DIGITS));
  const margins = new Float64Array(rows).fill(base);
  const gradients = new Float64Array(rows);
  const hessians = new Float64Array(rows);
  const random = new SeededRandom(options.seed);
  const trees: Tree[] = [];
  for (let t = 0; t < options.trees; t++) {
    for (let r = 0; r < rows; r++) {
      const p = 1 / (1 + Math.exp(-margins[r]!));
      gradients[r] = (p - data.labels[r]!) * weights[r]!;
      hessians[r] = Math.max(p * (1 - p), 1e-12) * weights[r]!;
    }
    const sample: number[] = [];
    for (let r = 0; r < rows; r++) if (options.subsample >= 1 || random.next() / 4294967296 < options.subsample) sample.push(r);
    const { tree, splitBins } = new TreeGrower(binned, cuts, gradients, hessians, options).grow(Int32Array.from(sample));
    // Rounded before it counts, so the committed file is exactly the model that was fitted.
    tree.value = tree.value.map((value) => Number(value.toPrecision(LEAF_DIGITS)));
    tree.threshold = tree.threshold.map((value) => Number(value.toPrecision(THRESHOLD_DIGITS)));
    trees.push(tree);
    for (let r = 0; r < rows; r++) margins[r]! += binnedTreeValue(tree, splitBins, binned, featureCount, r);
  }
  return { features: [...featureNames], base, trees };
}

/** Per feature, the ascending cut values: a value goes to the first bin whose cut it does not exceed. */
function featureCuts(features: readonly Float64Array[], featureCount: number, bins: number): Float64Array[] {
  const cuts: Float64Array[] = [];
  for (let f = 0; f < featureCount; f++) {
    const values: number[] = [];
    for (const row of features) if (!Number.isNaN(row[f]!)) values.push(row[f]!);
    values.sort((a, b) => a - b);
    const distinct: number[] = [];
    for (const value of values) if (distinct.length === 0 || distinct[distinct.length - 1] !== value) distinct.push(value);
    const chosen: number[] = [];
    if (distinct.length <= bins) {
      for (let k = 0; k + 1 < distinct.length; k++) chosen.push((distinct[k]! + distinct[k + 1]!) / 2);
    } else {
      for (let b = 1; b < bins; b++) {
        const at = values[Math.floor((b * values.length) / bins)]!;
        // The cut lies between `at` and the next distinct value, so equal values share a bin.
        const next = distinct.find((value) => value > at);
        if (next === undefined) break;
        const cut = (at + next) / 2;
        if (chosen.length === 0 || chosen[chosen.length - 1]! < cut) chosen.push(cut);
      }
    }
    cuts.push(Float64Array.from(chosen));
  }
  return cuts;
}

function binOf(value: number, cuts: Float64Array): number {
  if (Number.isNaN(value)) return MISSING_BIN;
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (value <= cuts[middle]!) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Bins row-major (row r's feature f at r * featureCount + f): a node's histograms are one pass over its rows. */
function binRows(features: readonly Float64Array[], cuts: readonly Float64Array[]): Uint8Array {
  const featureCount = cuts.length;
  const binned = new Uint8Array(features.length * featureCount);
  features.forEach((row, r) => {
    for (let f = 0; f < featureCount; f++) binned[r * featureCount + f] = binOf(row[f]!, cuts[f]!);
  });
  return binned;
}

/** The tree's value for a training row, read through its bins (the same path as its raw values take). */
function binnedTreeValue(tree: Tree, splitBins: readonly number[], binned: Uint8Array, featureCount: number, row: number): number {
  let node = 0;
  while (tree.feature[node]! >= 0) {
    const bin = binned[row * featureCount + tree.feature[node]!]!;
    const goesLeft = bin === MISSING_BIN ? tree.missingLeft[node] === 1 : bin <= splitBins[node]!;
    node = goesLeft ? tree.left[node]! : tree.right[node]!;
  }
  return tree.value[node]!;
}

interface Split {
  gain: number;
  feature: number;
  bin: number;
  missingLeft: boolean;
}

const HISTOGRAM_BINS = MISSING_BIN + 1;

class TreeGrower {
  private readonly tree: Tree = { feature: [], threshold: [], missingLeft: [], left: [], right: [], value: [] };
  /** Per node, the last bin that goes left (the training rows' view of its threshold). */
  private readonly splitBins: number[] = [];
  private readonly featureCount: number;
  private readonly gradientHistogram: Float64Array;
  private readonly hessianHistogram: Float64Array;

  constructor(
    private readonly binned: Uint8Array,
    private readonly cuts: readonly Float64Array[],
    private readonly gradients: Float64Array,
    private readonly hessians: Float64Array,
    private readonly options: BoostingOptions,
  ) {
    this.featureCount = cuts.length;
    this.gradientHistogram = new Float64Array(this.featureCount * HISTOGRAM_BINS);
    this.hessianHistogram = new Float64Array(this.featureCount * HISTOGRAM_BINS);
  }

  grow(rows: Int32Array): { tree: Tree; splitBins: number[] } {
    this.node(rows, 0);
    return { tree: this.tree, splitBins: this.splitBins };
  }

  private node(rows: Int32Array, depth: number): number {
    const id = this.tree.feature.length;
    this.tree.feature.push(-1);
    this.tree.threshold.push(0);
    this.tree.missingLeft.push(0);
    this.tree.left.push(-1);
    this.tree.right.push(-1);
    this.splitBins.push(0);
    let gradient = 0;
    let hessian = 0;
    for (let i = 0; i < rows.length; i++) {
      gradient += this.gradients[rows[i]!]!;
      hessian += this.hessians[rows[i]!]!;
    }
    this.tree.value.push((-gradient / (hessian + this.options.l2)) * this.options.learningRate);
    if (depth >= this.options.depth || hessian < 2 * this.options.minLeafWeight) return id;
    const split = this.bestSplit(rows, gradient, hessian);
    if (split === undefined) return id;
    const left: number[] = [];
    const right: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const bin = this.binned[r * this.featureCount + split.feature]!;
      const goesLeft = bin === MISSING_BIN ? split.missingLeft : bin <= split.bin;
      (goesLeft ? left : right).push(r);
    }
    this.tree.feature[id] = split.feature;
    this.tree.threshold[id] = this.cuts[split.feature]![split.bin]!;
    this.tree.missingLeft[id] = split.missingLeft ? 1 : 0;
    this.splitBins[id] = split.bin;
    this.tree.left[id] = this.node(Int32Array.from(left), depth + 1);
    this.tree.right[id] = this.node(Int32Array.from(right), depth + 1);
    return id;
  }

  private bestSplit(rows: Int32Array, gradient: number, hessian: number): Split | undefined {
    const { l2, minLeafWeight } = this.options;
    const { featureCount, binned, gradients, hessians } = this;
    const parentScore = (gradient * gradient) / (hessian + l2);
    const g = this.gradientHistogram;
    const h = this.hessianHistogram;
    g.fill(0);
    h.fill(0);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const rowG = gradients[r]!;
      const rowH = hessians[r]!;
      const at = r * featureCount;
      for (let f = 0; f < featureCount; f++) {
        const slot = f * HISTOGRAM_BINS + binned[at + f]!;
        g[slot]! += rowG;
        h[slot]! += rowH;
      }
    }
    let best: Split | undefined;
    const consider = (lg: number, lh: number, feature: number, bin: number, missingLeft: boolean) => {
      const rg = gradient - lg;
      const rh = hessian - lh;
      if (lh < minLeafWeight || rh < minLeafWeight) return;
      const gain = (lg * lg) / (lh + l2) + (rg * rg) / (rh + l2) - parentScore;
      if (gain > 1e-9 && (best === undefined || gain > best.gain)) best = { gain, feature, bin, missingLeft };
    };
    for (let f = 0; f < featureCount; f++) {
      // Bin b holds values <= cuts[b]; the last bin holds the rest, so splits are after bins 0..cuts-1.
      const cutCount = this.cuts[f]!.length;
      const offset = f * HISTOGRAM_BINS;
      const missingG = g[offset + MISSING_BIN]!;
      const missingH = h[offset + MISSING_BIN]!;
      let leftG = 0;
      let leftH = 0;
      for (let bin = 0; bin < cutCount; bin++) {
        leftG += g[offset + bin]!;
        leftH += h[offset + bin]!;
        consider(leftG, leftH, f, bin, false);
        if (missingH > 0) consider(leftG + missingG, leftH + missingH, f, bin, true);
      }
    }
    return best;
  }
}
