/**
 * A boosted-trees model as committed JSON (match-model.json) and its evaluation: the sum of one
 * leaf value per tree plus a base is the log-odds. A value goes left when it is at most the
 * node's threshold; a missing one (NaN) goes where the node's missingLeft says.
 */

/** One tree, nodes as parallel arrays; a leaf has feature -1. */
export interface Tree {
  feature: number[];
  threshold: number[];
  /** 1: a missing value goes left. */
  missingLeft: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface BoostedTrees {
  /** Feature names, in the order of the vectors the model reads. */
  features: string[];
  base: number;
  trees: Tree[];
}

/** The model laid out in flat typed arrays for evaluation on the hot path. */
export class CompiledTrees {
  readonly featureCount: number;
  private readonly roots: Int32Array;
  private readonly feature: Int32Array;
  private readonly threshold: Float64Array;
  private readonly missingLeft: Uint8Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly value: Float64Array;
  private readonly base: number;

  constructor(model: BoostedTrees) {
    this.featureCount = model.features.length;
    this.base = model.base;
    const nodes = model.trees.reduce((total, tree) => total + tree.feature.length, 0);
    this.roots = new Int32Array(model.trees.length);
    this.feature = new Int32Array(nodes);
    this.threshold = new Float64Array(nodes);
    this.missingLeft = new Uint8Array(nodes);
    this.left = new Int32Array(nodes);
    this.right = new Int32Array(nodes);
    this.value = new Float64Array(nodes);
    let offset = 0;
    model.trees.forEach((tree, t) => {
      this.roots[t] = offset;
      for (let n = 0; n < tree.feature.length; n++) {
        this.feature[offset + n] = tree.feature[n]!;
        this.threshold[offset + n] = tree.threshold[n]!;
        this.missingLeft[offset + n] = tree.missingLeft[n]!;
        this.left[offset + n] = offset + tree.left[n]!;
        this.right[offset + n] = offset + tree.right[n]!;
        this.value[offset + n] = tree.value[n]!;
      }
      offset += tree.feature.length;
    });
  }

  logOdds(x: Float64Array): number {
    let sum = this.base;
    const { feature, threshold, missingLeft, left, right, value, roots } = this;
    for (let t = 0; t < roots.length; t++) {
      let node = roots[t]!;
      while (feature[node]! >= 0) {
        const v = x[feature[node]!]!;
        node = (v !== v ? missingLeft[node] === 1 : v <= threshold[node]!) ? left[node]! : right[node]!;
      }
      sum += value[node]!;
    }
    return sum;
  }

  probability(x: Float64Array): number {
    return 1 / (1 + Math.exp(-this.logOdds(x)));
  }
}
