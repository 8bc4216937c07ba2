/**
 * The book's change feed on DynamoDB Local and s3rver: commits numbered in order under concurrent
 * writers, read in pages by a reader that comes back with its position while they write, every
 * change once; positions refused when forged (400) or past their retention (410).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { startTestApi } from '../support/test-api';
import { tableOf } from '../../shared/platform/table';
import { resultObjectStoreOf } from '../../shared/platform/objects/services';
import { FileReads } from '../../shared/platform/objects/block-files';
import { DomainError } from '../../shared/platform/errors';
import { CHANGES_RETENTION_DAYS } from '../../shared/mapping-book/files';
import {
  ChangeLog,
  FEED_START,
  formatPosition,
  CHANGES_BLOCK,
  countChanges,
  INLINE_CHANGES,
  parsePosition,
  type BookChange,
  type FeedPosition,
} from '../../shared/mapping-book/change-log';
import type { ChangeKind } from '../../shared/mapping-book/entries';

const api = await startTestApi();
const log = new ChangeLog(tableOf(api.runtime), resultObjectStoreOf(api.runtime), () => api.clock.now(), new FileReads());
const KINDS: ChangeKind[] = ['NEW', 'UPDATED', 'DELETED'];

function changes(writer: string, count: number): BookChange[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: KINDS[i % 3]!,
    source: 'OWN',
    partnerHotelId: `${writer}-${i}`,
    partner: { name: 'Hotel' },
    status: 'MATCHED',
    method: 'FUZZY',
    referenceHotelId: randomUUID(),
    referenceHotelName: 'Hotel',
    score: 0.9,
    reason: 'First mapped',
    changedAt: api.clock.now().toISOString(),
    cause: { kind: 'JOB', mappingJobId: writer },
  }));
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  assert.fail('expected a refusal');
}

describe('the change log', () => {
  it('numbers commits in order, holds small ones and files large ones, and reads them back in pages', async () => {
    const organizationId = randomUUID();
    assert.deepEqual(await log.read(organizationId, FEED_START, 100), { changes: [], position: FEED_START, more: false });
    const small = changes('small', 3);
    const large = changes('large', CHANGES_BLOCK * 2 + 40);
    assert.equal(await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'small' }, small), 1);
    assert.equal(await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'large' }, large), 2);
    const first = await log.read(organizationId, FEED_START, 10);
    assert.deepEqual(first.changes, [...small, ...large.slice(0, 7)]);
    assert.deepEqual(first.position, { sequence: 2, read: 7 });
    assert.equal(first.more, true);
    // Pages that start and end inside the file's blocks of CHANGES_BLOCK.
    const pages: BookChange[][] = [];
    let rest = await log.read(organizationId, first.position, 333);
    pages.push(rest.changes);
    while (rest.more) {
      rest = await log.read(organizationId, rest.position, 333);
      pages.push(rest.changes);
    }
    assert.deepEqual(
      pages.map((page) => page.length),
      [333, 333, 333, 34],
    );
    assert.deepEqual(pages.flat(), large.slice(7));
    assert.deepEqual(rest.position, { sequence: 3, read: 0 });
    assert.deepEqual(await log.read(organizationId, rest.position, 10), { changes: [], position: rest.position, more: false });
    assert.deepEqual(await log.counts(organizationId, first.position), { new: 344, updated: 345, deleted: 344, position: rest.position });
    assert.deepEqual(await log.endPosition(organizationId), rest.position);
  });

  it("counts a commit of a whole book's changes from within it a page at a time, and from its start by its counts alone, reading none of its changes", async () => {
    const organizationId = randomUUID();
    const book = changes('book', 25_000);
    const after = changes('after', 4);
    await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'book' }, book);
    await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'after' }, after);
    const files = resultObjectStoreOf(api.runtime);
    let reads = 0;
    const counting = new ChangeLog(
      tableOf(api.runtime),
      { get: (key, range) => (reads++, files.get(key, range)), put: files.put.bind(files) },
      () => api.clock.now(),
      new FileReads(),
    );
    const end = await log.endPosition(organizationId);
    assert.deepEqual(await counting.counts(organizationId, FEED_START), { ...countChanges([...book, ...after]), position: end });
    assert.equal(reads, 0, "from a commit's start its counts are enough");
    assert.deepEqual(await counting.counts(organizationId, { sequence: 1, read: 7 }), {
      ...countChanges([...book.slice(7), ...after]),
      position: end,
    });
    assert.ok(reads >= 25_000 / CHANGES_BLOCK, 'from within it, its changes are read');
  });

  it('gives concurrent writers one number each, and a reader paging meanwhile sees every change once, in commit order', async () => {
    const organizationId = randomUUID();
    const writers = Array.from({ length: 6 }, (_, w) => `w${w}`);
    const written: string[][] = [];
    const writing = Promise.all(
      writers.map(async (writer) => {
        for (let batch = 0; batch < 5; batch++) {
          const batchChanges = changes(`${writer}-${batch}`, batch % 2 ? INLINE_CHANGES + 5 : 2);
          const sequence = await log.commit(organizationId, { kind: 'JOB', mappingJobId: writer }, batchChanges);
          written[sequence! - 1] = batchChanges.map((change) => change.partnerHotelId);
        }
      }),
    );
    const seen: string[] = [];
    let position: FeedPosition = FEED_START;
    let done = false;
    void writing.then(() => (done = true));
    // Reads in small pages while the writers write, then to the end once they are done.
    for (;;) {
      const finished = done;
      const page = await log.read(organizationId, parsePosition(formatPosition(position)), 7);
      seen.push(...page.changes.map((change) => change.partnerHotelId));
      position = page.position;
      if (finished && !page.more) break;
    }
    await writing;
    assert.equal(written.length, 30);
    assert.deepEqual(seen, written.flat());
    assert.equal(new Set(seen).size, seen.length);
  });

  it('refuses a forged position with 400 and one past its retention with 410', async () => {
    const organizationId = randomUUID();
    for (const text of ['', '0.0', '1', '1.', 'a.1', '01.0', '1.-1', '1.0.0', '99999999999999999.0']) {
      assert.equal((await refusal(Promise.resolve().then(() => parsePosition(text)))).kind, 'invalid_input', text);
    }
    await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'old' }, changes('old', 2));
    assert.equal((await refusal(log.read(organizationId, { sequence: 5, read: 0 }, 10))).kind, 'invalid_input');
    assert.equal((await refusal(log.read(organizationId, { sequence: 1, read: 3 }, 10))).kind, 'invalid_input');
    api.clock.advance(CHANGES_RETENTION_DAYS * 86_400_000);
    try {
      await log.commit(organizationId, { kind: 'JOB', mappingJobId: 'new' }, changes('new', 1));
      const expired = await refusal(log.read(organizationId, FEED_START, 10));
      assert.equal(expired.kind, 'gone');
      assert.match(expired.message, /older than the feed keeps \(30 days\)/);
      assert.deepEqual(await log.oldestPosition(organizationId), { sequence: 2, read: 0 });
      assert.deepEqual(
        (await log.read(organizationId, { sequence: 2, read: 0 }, 10)).changes.map((change) => change.partnerHotelId),
        ['new-0'],
      );
    } finally {
      api.clock.advance(-CHANGES_RETENTION_DAYS * 86_400_000);
    }
  });
});
