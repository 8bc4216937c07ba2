/**
 * Starts the longest test files first, so that the run does not end waiting for one of them. Jest
 * orders by the durations it remembers, and, on a fresh clone (CI) that remembers none, by file
 * size, which starts these short files that run for minutes last.
 */
import TestSequencer from '@jest/test-sequencer';

const LONGEST_FIRST = [
  'integration/kill-restart',
  'infra/synth',
  'integration/map-cli',
  'integration/local-start',
  'integration/admin-cli',
];

function rank(test) {
  const index = LONGEST_FIRST.findIndex((name) => test.path.endsWith(`/test/${name}.test.ts`));
  return index < 0 ? LONGEST_FIRST.length : index;
}

export default class SlowTestsFirst extends TestSequencer.default {
  sort(tests) {
    // Array sort is stable: the others keep jest's own order.
    return super.sort(tests).sort((a, b) => rank(a) - rank(b));
  }
}
