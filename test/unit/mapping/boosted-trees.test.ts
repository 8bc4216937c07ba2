import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { type BoostedTrees, CompiledTrees, type Tree } from '../../../shared/mapping/boosted-trees';
import { MATCH_MODEL } from '../../../shared/mapping/match-decision';

/** The model's log-odds by following each tree's child links, as the JSON states them. */
function walkedLogOdds(model: BoostedTrees, x: Float64Array): number {
  let sum = model.base;
  for (const tree of model.trees) {
    let node = 0;
    while (tree.feature[node]! >= 0) {
      const value = x[tree.feature[node]!]!;
      const left = Number.isNaN(value) ? tree.missingLeft[node] === 1 : value <= tree.threshold[node]!;
      node = left ? tree.left[node]! : tree.right[node]!;
    }
    sum += tree.value[node]!;
  }
  return sum;
}

/** A random tree over `features` features, leaves at any depth up to `depth`. */
function randomTree(random: () => number, features: number, depth: number): Tree {
  const tree: Tree = { feature: [], threshold: [], missingLeft: [], left: [], right: [], value: [] };
  const grow = (level: number): number => {
    const id = tree.feature.length;
    const leaf = level === depth || (level > 0 && random() < 0.3);
    tree.feature.push(leaf ? -1 : Math.floor(random() * features));
    tree.threshold.push(leaf ? 0 : Math.round(random() * 10) / 2);
    tree.missingLeft.push(random() < 0.5 ? 1 : 0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.value.push(random() - 0.5);
    if (!leaf) {
      tree.left[id] = grow(level + 1);
      tree.right[id] = grow(level + 1);
    }
    return id;
  };
  grow(0);
  return tree;
}

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Vectors with values on and around the thresholds, and missing ones. */
function randomVectors(random: () => number, features: number, count: number): Float64Array[] {
  return Array.from({ length: count }, () =>
    Float64Array.from({ length: features }, () => (random() < 0.15 ? Number.NaN : Math.round(random() * 12) / 2 - 0.5)),
  );
}

describe('compiled trees', () => {
  for (const depth of [1, 3, 4, 6]) {
    it(`give the log-odds of walking the trees, to the bit, with trees up to ${depth} deep and missing values`, () => {
      const random = seededRandom(depth);
      const model: BoostedTrees = {
        features: ['a', 'b', 'c'],
        base: -0.3,
        trees: Array.from({ length: 20 }, () => randomTree(random, 3, depth)),
      };
      const compiled = new CompiledTrees(model);
      for (const x of randomVectors(random, 3, 500)) assert.equal(compiled.logOdds(x), walkedLogOdds(model, x));
    });
  }

  it('give the committed model’s log-odds of walking its trees', () => {
    const compiled = new CompiledTrees(MATCH_MODEL);
    for (const x of randomVectors(seededRandom(7), MATCH_MODEL.features.length, 500))
      assert.equal(compiled.logOdds(x), walkedLogOdds(MATCH_MODEL, x));
  });

  it('are the base alone without trees', () => {
    assert.equal(new CompiledTrees({ features: ['a'], base: 0.25, trees: [] }).logOdds(Float64Array.of(1)), 0.25);
  });

  it('refuse a split that sends a missing value right at a threshold of +Infinity (its stand-in could not pass it)', () => {
    const tree: Tree = {
      feature: [0, -1, -1],
      threshold: [Infinity, 0, 0],
      missingLeft: [0, 0, 0],
      left: [1, -1, -1],
      right: [2, -1, -1],
      value: [0, 1, 2],
    };
    assert.throws(() => new CompiledTrees({ features: ['a'], base: 0, trees: [tree] }), /finite threshold/);
  });
});
