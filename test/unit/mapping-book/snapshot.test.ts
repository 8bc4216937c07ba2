/**
 * A generation's entries as files (snapshot.ts), over the bucket in memory: segments whose newer
 * entries hide older ones, read by key, by range, in pages and through the entry index; a part's
 * derived file made again when lost; and what a function keeps of the files it read.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { applyJobRow, OWN_SOURCE, type JobRow } from '../../../shared/mapping-book/entries';
import { keyAt, type GenerationColumns } from '../../../shared/mapping-book/entry-search';
import { compareKeys, entryKey, hotelKeys, listingKey } from '../../../shared/mapping-book/keys';
import {
  SNAPSHOT_BLOCK_ENTRIES,
  Snapshot,
  snapshotFiles,
  snapshotKept,
  writeGeneration,
  writePart,
  writeSegment,
  type SnapshotEntry,
} from '../../../shared/mapping-book/snapshot';
import { FileReads } from '../../../shared/platform/objects/block-files';
import { ObjectsInMemory } from '../../support/results-in-memory';

const ORG = 'org-1';
const AT = '2026-11-30T10:00:00.000Z';

const id = (i: number) => `P${String(i).padStart(5, '0')}`;

function row(i: number, hotel: string, overrides: Partial<JobRow> = {}): JobRow {
  return {
    partnerHotelId: id(i),
    source: OWN_SOURCE,
    partner: { name: `Hotel ${i}` },
    status: 'MATCHED',
    method: 'FUZZY',
    referenceHotelId: hotel,
    referenceHotelName: `Reference ${hotel}`,
    score: 0.9,
    evidence: null,
    candidates: [],
    ...overrides,
  };
}

const entry = (jobRow: JobRow, folded = 1): SnapshotEntry => ({ ...applyJobRow(undefined, jobRow, AT, 'job-1', AT).entry, folded });

/** Writes a segment of the entries (in key order), cut into parts of `perPart`. */
async function writeSegmentOf(files: ObjectsInMemory, segment: string, entries: readonly SnapshotEntry[], perPart = entries.length) {
  const sorted = [...entries].sort((a, b) => compareKeys(entryKey(a), entryKey(b)));
  const parts = Math.max(1, Math.ceil(sorted.length / perPart));
  for (let part = 0; part < parts; part++) {
    await writePart(files, ORG, segment, part, sorted.slice(part * perPart, (part + 1) * perPart), {});
  }
  await writeSegment(files, ORG, segment, parts);
  return { id: segment, entries: sorted.length, blocks: Math.ceil(sorted.length / SNAPSHOT_BLOCK_ENTRIES) };
}

/** A generation of two segments: 1,200 entries of hotel H-A, then a newer segment moving every tenth to H-B. */
async function twoSegments() {
  const files = new ObjectsInMemory();
  const older = Array.from({ length: 1_200 }, (_, i) => entry(row(i, 'H-A')));
  const newer = Array.from({ length: 120 }, (_, k) => entry(row(k * 10, 'H-B', { status: 'REVIEW', score: 0.6 }), 2));
  const segments = [await writeSegmentOf(files, 'job-1', older, 500), await writeSegmentOf(files, 'job-2', newer)];
  await writeGeneration(files, ORG, { generation: 'job-2', statistics: {}, segments });
  const open = (kept = snapshotKept(new FileReads())) => Snapshot.open({ files, kept }, ORG, 'job-2');
  return { files, open, newer };
}

describe('a generation of several segments', () => {
  it('answers each key from the newest segment that holds it', async () => {
    const { open } = await twoSegments();
    const snapshot = (await open())!;
    assert.equal((await snapshot.entryAt(entryKey({ partnerHotelId: id(10), source: OWN_SOURCE })))?.referenceHotelId, 'H-B');
    assert.equal((await snapshot.entryAt(entryKey({ partnerHotelId: id(11), source: OWN_SOURCE })))?.referenceHotelId, 'H-A');
    assert.equal(await snapshot.entryAt(entryKey({ partnerHotelId: id(5_000), source: OWN_SOURCE })), undefined);
    const answer = await snapshot.answerAt(entryKey({ partnerHotelId: id(20), source: OWN_SOURCE }));
    assert.deepEqual([answer?.status, answer?.referenceHotelId, answer?.folded], ['REVIEW', 'H-B', 2]);
    assert.equal(await Snapshot.open({ files: new ObjectsInMemory(), kept: snapshotKept(new FileReads()) }, ORG, undefined), undefined);
  });

  it('pages every entry once, in key order, the newest of each', async () => {
    const { open } = await twoSegments();
    const snapshot = (await open())!;
    const paged: SnapshotEntry[] = [];
    for (let after: string | null = null; ;) {
      const page = await snapshot.entriesAfter(after, 170);
      if (page.length === 0) break;
      paged.push(...page);
      after = entryKey(page[page.length - 1]!);
    }
    assert.deepEqual(
      paged.map((each) => each.partnerHotelId),
      Array.from({ length: 1_200 }, (_, i) => id(i)),
    );
    assert.equal(paged.filter((each) => each.referenceHotelId === 'H-B').length, 120);
    const range = await snapshot.entriesIn({ lower: entryKey(paged[95]!), upper: entryKey(paged[105]!) });
    assert.deepEqual(
      range.map((each) => [each.partnerHotelId, each.referenceHotelId]),
      paged.slice(95, 105).map((each) => [each.partnerHotelId, each.referenceHotelId]),
    );
  });

  it("finds entries through the entry index; an older segment's key may name an entry a newer one changed", async () => {
    const { open } = await twoSegments();
    const snapshot = (await open())!;
    assert.equal((await snapshot.entryKeysFor(hotelKeys(['H-B']))).size, 120);
    // The older segment still lists every entry under H-A: readers read the entry and look again.
    assert.equal((await snapshot.entryKeysFor(hotelKeys(['H-A']))).size, 1_200);
    const review: string[] = [];
    for (let after: string | null = null; ;) {
      const page = await snapshot.entryKeysUnder(listingKey.status('REVIEW'), after, 50);
      review.push(...page.keys);
      if (!page.more) break;
      after = page.keys[page.keys.length - 1]!;
    }
    assert.deepEqual(
      review,
      Array.from({ length: 120 }, (_, k) => entryKey({ partnerHotelId: id(k * 10), source: OWN_SOURCE })),
    );
  });

  it('knows which rows of the older segment the newer one hides, for searches', async () => {
    const { open } = await twoSegments();
    const { columns, hidden } = await (await open())!.searchColumns();
    assert.deepEqual(
      columns.map((parts) => parts.length),
      [3, 1],
    );
    const hiddenCount = hidden.flat().reduce((sum, rows) => sum + rows.reduce((count, byte) => count + (byte ? 1 : 0), 0), 0);
    assert.equal(hiddenCount, 120);
  });
});

/** What a search reads of each part's columns. */
const readable = (columns: GenerationColumns) =>
  columns.map((parts) =>
    parts.map((part) => ({
      keys: Array.from({ length: part.rows }, (_, row) => keyAt(part, row)),
      statusMethods: [...part.statusMethods],
      scores: [...part.scores],
      folded: [...part.folded],
    })),
  );

describe("a part's derived file", () => {
  it('is made again from its entries when lost: the entry index and the search columns answer as before', async () => {
    const { files, open } = await twoSegments();
    const before = await open();
    const [keys, columns] = [await before!.entryKeysFor(hotelKeys(['H-B'])), (await before!.searchColumns()).columns];
    for (const part of [0, 1, 2]) assert.ok(files.files.delete(snapshotFiles.derived(ORG, 'job-1', part)));
    assert.ok(files.files.delete(snapshotFiles.derived(ORG, 'job-2', 0)));
    const after = (await open())!;
    assert.deepEqual(await after.entryKeysFor(hotelKeys(['H-B'])), keys);
    assert.deepEqual(readable((await after.searchColumns()).columns), readable(columns));
  });
});

describe('what a function keeps', () => {
  it('reads a block once across snapshots opened with the same kept reads, and again with reads of its own', async () => {
    const { files, open } = await twoSegments();
    const key = entryKey({ partnerHotelId: id(777), source: OWN_SOURCE });
    const kept = snapshotKept(new FileReads());
    await (await open(kept))!.entryAt(key);
    const read = files.reads.length;
    await (await open(kept))!.entryAt(key);
    assert.equal(files.reads.length, read, 'the manifests and the block are kept');
    await (await open())!.entryAt(key);
    assert.ok(files.reads.length > read, 'another function reads them itself');
  });
});
