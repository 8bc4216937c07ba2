import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { MappingStatus } from '../../../shared/mapping';
import { EXPORTS_PREFIX } from '../../../shared/export-format';
import { chargedMappings, countResults, emptyCounts, jobObjects } from '../../../shared/mapping-jobs/job';
import { resultPartition, resultSortKey } from '../../../shared/mapping-jobs/store';

const rows = (...statuses: MappingStatus[]) => statuses.map((status) => ({ status }));

describe('a job’s counts', () => {
  it('start with the total reserved and nothing processed', () => {
    assert.deepEqual(emptyCounts(4_001), { total: 4_001, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
    assert.deepEqual(emptyCounts(0), { total: 0, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
  });

  it('count every result once, under its status, and those answered from the book unchanged beside', () => {
    const answered = [
      ...rows('MATCHED', 'REVIEW', 'UNMATCHED', 'MATCHED'),
      { status: 'UNMATCHED' as const, unchanged: true as const },
      { status: 'MATCHED' as const, unchanged: true as const },
    ];
    const counts = countResults(answered);
    assert.deepEqual(counts, { processed: 6, matched: 3, review: 1, unmatched: 2, unchanged: 2 });
    assert.equal(chargedMappings(counts), 4, 'a job charges its processed rows less the unchanged');
    assert.deepEqual(countResults([]), { processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
  });

  it('add up: every processed row is matched, in review or unmatched', () => {
    const statuses: MappingStatus[] = ['MATCHED', 'REVIEW', 'UNMATCHED'];
    const results = Array.from({ length: 97 }, (_, i) => ({ status: statuses[(i * 7) % 3]! }));
    const counts = countResults(results);
    assert.equal(counts.processed, 97);
    assert.equal(counts.matched + counts.review + counts.unmatched, counts.processed);
  });
});

describe('where a job’s files live', () => {
  const job = { organizationId: 'org-1', id: 'job-1' };

  it('keeps one results file per chunk, numbered so that names sort in chunk order', () => {
    assert.equal(jobObjects.results(job, 0), 'mapping-jobs/org-1/job-1/results/00000.jsonl.gz');
    assert.equal(jobObjects.results(job, 123), 'mapping-jobs/org-1/job-1/results/00123.jsonl.gz');
    const names = [0, 1, 9, 10, 100, 999, 1_000, 10_000].map((chunk) => jobObjects.results(job, chunk));
    assert.deepEqual([...names].sort(), names);
  });

  it('writes exports under the prefix the bucket empties after a week, apart from the results', () => {
    const key = jobObjects.export(job, 'exp-1', 'csv.gz');
    assert.equal(key, 'exports/mapping-jobs/org-1/job-1/exp-1.csv.gz');
    assert.ok(key.startsWith(EXPORTS_PREFIX));
    assert.ok(!jobObjects.results(job, 0).startsWith(EXPORTS_PREFIX));
  });
});

describe('the index keys of a job’s results', () => {
  it('give each status and method a partition of the job, NONE for a row without a method', () => {
    assert.equal(resultPartition('job-1', 'MATCHED', 'FUZZY'), 'JOB#job-1#MATCHED#FUZZY');
    assert.equal(resultPartition('job-1', 'UNMATCHED', null), 'JOB#job-1#UNMATCHED#NONE');
    assert.equal(resultPartition('job-1', 'UNMATCHED', 'MANUAL'), 'JOB#job-1#UNMATCHED#MANUAL');
    assert.notEqual(resultPartition('job-1', 'MATCHED', 'ID'), resultPartition('job-2', 'MATCHED', 'ID'));
  });

  it('sort by score as text exactly as the scores sort as numbers, 0 and 1 included', () => {
    const scores = [1, 0, 0.5, 0.05, 0.9999, 0.123, 0.1, 0.0001, 0.75, 0.999];
    const byKey = scores
      .map((score) => ({ score, key: resultSortKey(score, 'p') }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    assert.deepEqual(
      byKey.map(({ score }) => score),
      [...scores].sort((a, b) => a - b),
    );
    assert.equal(resultSortKey(0, 'p'), '0.0000#p');
    assert.equal(resultSortKey(1, 'p'), '1.0000#p');
    assert.equal(resultSortKey(0.05, 'p'), '0.0500#p');
  });

  it('break ties by partner hotel id, and keep the keys of different rows apart', () => {
    const keys = ['b', 'a', 'a1', 'B', 'a-2'].map((id) => resultSortKey(0.5, id));
    assert.deepEqual([...keys].sort(), ['0.5000#B', '0.5000#a', '0.5000#a-2', '0.5000#a1', '0.5000#b']);
    assert.equal(new Set(keys).size, keys.length);
    // A lower score sorts first whatever the ids.
    assert.ok(resultSortKey(0.4999, 'zzz') < resultSortKey(0.5, '000'));
    assert.ok(resultSortKey(0.9999, '~') < resultSortKey(1, ''));
  });

  it('compare scores to four decimal places: closer scores tie and fall back on the id', () => {
    assert.equal(resultSortKey(0.12341, 'p'), resultSortKey(0.12344, 'p'));
    assert.ok(resultSortKey(0.12344, 'a') < resultSortKey(0.12341, 'b'));
  });
});
