/**
 * A completed job written into the book, in ranges of entry keys on the queues, so that no write
 * rests on one function's time and a redelivered range writes nothing twice:
 *
 * 1. `startJobWrite` takes the book (one job's write at a time), chooses the newest segments its own
 *    merges (mergedFrom), cuts the work into ranges and notes the last sequence of the feed:
 *    laid-over entries up to it are folded into the write.
 * 2. `writeJobRange`, once per range and in parallel: the range's rows against the entries they
 *    name (all of the range's entries for a whole inventory, whose unlisted hotels end), with the
 *    laid-over ones folded in, by the rules of entries.ts; the entries that changed, over the merged
 *    segments' entries of the range, are written as a part of the write's segment, with the range's
 *    changes beside it. The same range written again writes the same files.
 * 3. The last range done commits the write (`finishJobWrite`): the next generation (the older
 *    segments and the write's) becomes the book's in the transaction that puts the changes in the
 *    feed. An entry that changed while the write ran (a person's decision, a publication followed,
 *    answers recorded) is laid over the generation and stays so: the write's row or removal is
 *    applied again over it, by the same rules (a decision stands unless the partner's hotel changed;
 *    a hotel the inventory no longer lists ends), in commits of its own just before the write's.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { blockAscending, inUtf8Order } from '../platform/objects/block-files';
import type { EventData, PartnerEvent } from '../events';
import {
  changeOf,
  formatPosition,
  readChangesFile,
  sumCounts,
  writeChangesFile,
  type BookChange,
  type ChangeCounts,
  type ChangesFile,
  type FeedStep,
} from './change-log';
import { BOOK_CHANGES_PREFIX } from './files';
import { applyJobRow, applyRemoval, type BookEntry, type JobRow, type Outcome } from './entries';
import {
  segmentFiles,
  snapshotFiles,
  Snapshot,
  SNAPSHOT_BLOCK_ENTRIES,
  writeGeneration,
  writePart,
  writeSegment,
  type PartManifest,
  type SegmentRef,
  type SnapshotEntry,
  withoutFolded,
} from './snapshot';
import { addStatistics, countEntries, type BookStatistics } from './statistics';
import { asLastListed, unlistedSince, type BookState, type JobWrite, type LaidOverEntry, type Publication } from './store';
import type { BookPorts } from './ports';
import { compareKeys, entryKey, inRange, type KeyRange } from './keys';

/** Blocks per range (500 rows or entries each, the job's and the merged segments'): a few seconds' work. */
export const RANGE_BLOCKS = 20;

/**
 * A partial job's write merges the book's newest segments into its own from the oldest one that is
 * at most this many times the size of what is newer (its newer segments and the job's rows): so
 * segments grow by size tiers, a reader looks into a few, and each entry is written again a few
 * times over the book's life (about log(book / job) times).
 */
const MERGE_RATIO = 2;

/** The first of the book's segments (oldest first) a write of about `blocks` blocks of changed entries merges into its own. */
export function mergedFrom(segments: readonly Pick<SegmentRef, 'blocks'>[], blocks: number): number {
  let from = segments.length;
  let newer = blocks;
  for (let segment = segments.length - 1; segment >= 0; segment--) {
    if (segments[segment]!.blocks <= MERGE_RATIO * newer) from = segment;
    newer += segments[segment]!.blocks;
  }
  return from;
}

/** Reading a block of the book for a row costs about a tenth of writing a block of rows or merged entries. */
const READ_WORK = 0.1;

/**
 * The ranges of a write, each about RANGE_BLOCKS blocks of work: a block of the job's rows or of the
 * merged segments' entries counts one, a block of the book the rows may read a tenth (so that a few
 * rows spread over a large book are read in several messages, none too long).
 */
export function writeRanges(rowFirsts: readonly string[], mergedFirsts: readonly string[], readFirsts: readonly string[] = []): KeyRange[] {
  const marks = inUtf8Order(
    [
      ...rowFirsts.map((first) => ({ first, work: 1 })),
      ...mergedFirsts.map((first) => ({ first, work: 1 })),
      ...readFirsts.map((first) => ({ first, work: READ_WORK })),
    ],
    (mark) => mark.first,
    1,
  );
  const lowers: string[] = [];
  let work = 0;
  for (const mark of marks) {
    if (work >= RANGE_BLOCKS - 1e-9) {
      lowers.push(mark.first);
      work = 0;
    }
    work += mark.work;
  }
  return [null, ...lowers].map((lower, range) => ({ lower, upper: lowers[range] ?? null }));
}

/**
 * The ranges of a job's write: its rows' blocks, the merged segments' blocks, and the other blocks
 * it reads: every one for a whole inventory (its unlisted hotels end), those within its rows' span
 * for a partial one.
 */
function plannedRanges(
  snapshot: Snapshot | undefined,
  write: Pick<JobWrite, 'mergeFrom' | 'partial'>,
  firstIds: readonly string[],
): KeyRange[] {
  if (!snapshot) return writeRanges(firstIds, []);
  const [lowest, highest] = [firstIds[0], firstIds[firstIds.length - 1]];
  const kept = snapshot.oldest(write.mergeFrom).blockFirsts();
  const read = !write.partial
    ? kept
    : lowest !== undefined && highest !== undefined
      ? kept.filter((first) => compareKeys(first, lowest) >= 0 && compareKeys(first, highest) < 0)
      : [];
  return writeRanges(firstIds, snapshot.newest(write.mergeFrom).blockFirsts(), read);
}

/**
 * About how many blocks of entries a write changes: a partial job's rows; a whole inventory, whose
 * rows the book mostly holds as they are, its rows the engine mapped (new or changed).
 */
function changedBlocks(request: Pick<JobWriteRequest, 'partial' | 'changedRows'>, rowBlocks: number): number {
  return request.partial || request.changedRows === undefined ? rowBlocks : Math.ceil(request.changedRows / SNAPSHOT_BLOCK_ENTRIES);
}

/** The job's rows in partner id order, a block of about SNAPSHOT_BLOCK_ENTRIES rows at a time (a write weighs its work in such blocks). */
export interface JobRowsSource {
  outline(): Promise<{ firstIds: string[]; sources: string[] }>;
  rows(fromBlock: number, toBlock: number): Promise<JobRow[]>;
}

export interface JobWriteRequest {
  organizationId: string;
  mappingJobId: string;
  /** A partial inventory ends no entry. */
  partial: boolean;
  /** The reference publication the job mapped against. */
  mappedAgainst?: Publication;
  /** When the job's inventory was uploaded: what its rows say is as of then (entries listed later are left as they are). */
  listedAt: string;
  /** The job's rows the engine mapped, new or changed since the book's entry (the others the book holds as they are). */
  changedRows?: number;
}

/** Where a completed job's rows stand in the book: its write not begun, under way, committed, or given up. */
export type JobWriteStatus = 'WAITING' | 'WRITING' | 'WRITTEN' | 'ABANDONED';

export async function jobWriteStatus(
  ports: Pick<BookPorts, 'store'>,
  organizationId: string,
  mappingJobId: string,
): Promise<JobWriteStatus> {
  const write = await ports.store.write(organizationId, mappingJobId);
  if (!write) return 'WAITING';
  if (write.sequence !== undefined) return 'WRITTEN';
  return write.abandoned ? 'ABANDONED' : 'WRITING';
}

/** What the write's rows say is as of (a write planned before writes recorded it: when it began). */
const listedAtOf = (write: JobWrite) => write.listedAt ?? write.startedAt;

/** The ranges to write (0 when the job is in the book already), or 'busy' while another job's write holds the book. */
export async function startJobWrite(ports: BookPorts, request: JobWriteRequest, source: JobRowsSource): Promise<number | 'busy'> {
  const { organizationId, mappingJobId } = request;
  const existing = await ports.store.write(organizationId, mappingJobId);
  // Committed, or given up (a start delivered again after its write was abandoned takes nothing).
  if (existing?.sequence !== undefined || existing?.abandoned) return 0;
  if (!(await ports.store.beginWriting(organizationId, mappingJobId))) return 'busy';
  const { firstIds, sources } = await source.outline();
  const snapshot = await Snapshot.open(ports, organizationId, (await ports.store.state(organizationId)).generation);
  const mergeFrom = mergedFrom(snapshot?.manifest.segments ?? [], changedBlocks(request, firstIds.length));
  const write = await ports.store.planWrite(organizationId, {
    mappingJobId,
    ranges: plannedRanges(snapshot, { mergeFrom, partial: request.partial }, firstIds).length,
    mergeFrom,
    foldThrough: await ports.log.lastSequence(organizationId),
    sources,
    partial: request.partial,
    startedAt: ports.clock.now().toISOString(),
    listedAt: request.listedAt,
    ...(request.mappedAgainst && { mappedAgainst: request.mappedAgainst }),
  });
  return write.ranges;
}

/** The job's rows in a range: those of the blocks that may hold its keys. */
async function rowsIn(source: JobRowsSource, firstIds: readonly string[], range: KeyRange): Promise<JobRow[]> {
  // A block may end with a partner id the next one starts with (under another source): one block earlier is read too.
  const from =
    range.lower === null
      ? 0
      : Math.max(
          0,
          blockAscending(
            firstIds.map((first) => ({ first })),
            Buffer.from(range.lower, 'utf8'),
          ) - 1,
        );
  let to = firstIds.length;
  if (range.upper !== null) while (to > from && compareKeys(firstIds[to - 1]!, range.upper) > 0) to--;
  return (await source.rows(from, to)).filter((row) => inRange(entryKey(row), range));
}

const changesFileKey = (organizationId: string, mappingJobId: string, range: number, attempt?: string) =>
  `${BOOK_CHANGES_PREFIX}${organizationId}/${mappingJobId}/${String(range).padStart(5, '0')}${attempt ? `-${attempt}` : ''}`;

/** What a range's part manifest carries beside its entries: its changes file, and what it changed in the book's statistics. */
interface RangeChanges {
  bounds: KeyRange;
  changes: ChangesFile;
  statistics: BookStatistics;
}

export async function writeJobRange(
  ports: BookPorts,
  request: { organizationId: string; mappingJobId: string; range: number },
  source: JobRowsSource,
): Promise<void> {
  const { organizationId, mappingJobId, range } = request;
  const write = await ports.store.write(organizationId, mappingJobId);
  if (!write || write.sequence !== undefined || write.abandoned) return;
  if (!write.doneRanges?.has(range)) {
    const state = await ports.store.state(organizationId);
    const { firstIds } = await source.outline();
    const snapshot = await Snapshot.open(ports, organizationId, state.generation);
    const merged = snapshot?.newest(write.mergeFrom);
    const bounds = plannedRanges(snapshot, write, firstIds)[range]!;
    const [rows, laidOver] = await Promise.all([rowsIn(source, firstIds, bounds), ports.store.laidOverIn(organizationId, bounds)]);
    // Decisions made before the write began are folded in; later ones stay laid over, and win.
    const folding = laidOver.filter((laid) => laid.sequence <= write.foldThrough);
    const rowOf = new Map(rows.map((row) => [entryKey(row), row]));
    // The generation's entries the range may change: all of them for a whole inventory (its unlisted hotels end), else those of its rows and folded decisions.
    const generation = new Map<string, SnapshotEntry>();
    const read = write.partial
      ? snapshot?.entriesAt([...rowOf.keys(), ...folding.map((laid) => entryKey(laid.entry))])
      : snapshot?.entriesIn(bounds);
    for (const entry of (await read) ?? []) generation.set(entryKey(entry), entry);
    const current = new Map(generation);
    for (const laid of folding) {
      const key = entryKey(laid.entry);
      if (laid.sequence > (current.get(key)?.folded ?? 0)) current.set(key, { ...laid.entry, folded: laid.sequence });
    }
    const endingSources = new Set(write.partial ? [] : write.sources);
    const at = write.startedAt;
    const listedAt = listedAtOf(write);
    // The sources the write lists whole as the newest: an entry it leaves as it was need not be written again to say so.
    const listing = new Set(write.partial ? [] : write.sources.filter((source) => !unlistedSince(state, source, listedAt)));
    const written = new Map<string, SnapshotEntry>();
    const statistics: BookStatistics = {};
    const changes: BookChange[] = [];
    for (const key of inUtf8Order([...new Set([...current.keys(), ...rowOf.keys()])], (key) => key, 1)) {
      const before = current.get(key);
      const listed = rowOf.get(key);
      // A hotel the book's newest whole inventory of its source left out stays out.
      const row = before === undefined && listed && unlistedSince(state, listed.source, listedAt) ? undefined : listed;
      if (before === undefined && row === undefined) continue;
      const beforeEntry = before && asLastListed(withoutFolded(before), state);
      const outcome = row
        ? applyJobRow(beforeEntry, row, at, mappingJobId, listedAt)
        : beforeEntry && endingSources.has(beforeEntry.source)
          ? applyRemoval(beforeEntry, at, mappingJobId, listedAt)
          : { entry: beforeEntry! };
      const held = generation.get(key);
      // The generation's entry stands where the rules leave it as it was (a whole inventory's listing aside), unless a decision was folded into it.
      const standing =
        outcome.entry === beforeEntry ||
        (outcome.change === undefined && listing.has(outcome.entry.source) && sameButListed(outcome.entry, beforeEntry));
      if (before !== held || !standing) {
        const entry = { ...outcome.entry, folded: before?.folded ?? 0 };
        written.set(key, entry);
        if (held) countEntries(statistics, [held], -1);
        countEntries(statistics, [entry]);
      }
      if (outcome.change) changes.push(changeOf(outcome.change, outcome.entry));
    }
    // The write's segment: what the range changed, over the merged segments' entries (for a whole inventory, read above already).
    const segment = new Map<string, SnapshotEntry>();
    for (const entry of write.mergeFrom === 0 && !write.partial ? generation.values() : ((await merged?.entriesIn(bounds)) ?? []))
      segment.set(entryKey(entry), entry);
    for (const [key, entry] of written) segment.set(key, entry);
    const extra: RangeChanges = {
      bounds,
      changes: await writeChangesFile(ports.feedFiles, changesFileKey(organizationId, mappingJobId, range), changes),
      statistics,
    };
    await writePart(ports.files, organizationId, mappingJobId, range, inUtf8Order([...segment.values()], entryKey, 1), extra);
  }
  const done = await ports.store.rangeDone(organizationId, mappingJobId, range);
  if (done.doneRanges?.size === done.ranges) await finishJobWrite(ports, organizationId, mappingJobId, source);
}

/** Whether the rules' entry is the one before but for the time its partner listed it. */
function sameButListed(entry: BookEntry, before: BookEntry | undefined): boolean {
  if (before === undefined || entry.status === 'DELETED') return false;
  // As stored: a field the rules set to undefined is no field.
  const stored = (each: BookEntry) =>
    Object.fromEntries(Object.entries(each).filter(([field, value]) => field !== 'listedAt' && value !== undefined));
  return isDeepStrictEqual(stored(entry), stored(before));
}

/** MAPPING_BOOK_CHANGED: a batch of changes written, and where to read them from. */
function bookChangedEvent(
  organizationId: string,
  sequence: number,
  cause: EventData<'MAPPING_BOOK_CHANGED'>['cause'],
  counts: ChangeCounts,
  at: string,
): PartnerEvent {
  return {
    // One event per commit.
    id: `${organizationId}-book-${sequence}`,
    type: 'MAPPING_BOOK_CHANGED',
    organizationId,
    occurredAt: at,
    data: { cause, counts, position: formatPosition({ sequence, read: 0 }), committedAt: at },
  };
}

/** Entries one commit of a write's rows applied again lays over at most: its transaction also holds the feed's head and the commit. */
const REAPPLIED_COMMIT_ENTRIES = 90;

/**
 * Commits a write whose ranges are all done: the next generation becomes the book's, and its
 * changes go into the feed, in one transaction. Safe to repeat: a committed write is left as it is.
 */
export async function finishJobWrite(
  ports: BookPorts,
  organizationId: string,
  mappingJobId: string,
  source: JobRowsSource,
): Promise<number | undefined> {
  const write = await ports.store.write(organizationId, mappingJobId);
  if (!write || write.sequence !== undefined || write.abandoned) return write?.sequence;
  const parts = await writeSegment<RangeChanges>(ports.files, organizationId, mappingJobId, write.ranges);
  const state = await ports.store.state(organizationId);
  const previous = await Snapshot.open(ports, organizationId, state.generation);
  const segment: SegmentRef = {
    id: mappingJobId,
    entries: parts.reduce((sum, part) => sum + part.entries, 0),
    blocks: parts.reduce((sum, part) => sum + part.blocks.length, 0),
  };
  const kept = previous?.manifest.segments.slice(0, write.mergeFrom) ?? [];
  await writeGeneration(ports.files, organizationId, {
    generation: mappingJobId,
    statistics: parts.reduce((sum, part) => addStatistics(sum, part.extra.statistics), addStatistics({}, previous?.statistics ?? {})),
    segments: segment.entries > 0 ? [...kept, segment] : kept,
  });
  const listedWhole = write.partial ? undefined : newestWhole(state, write);
  const cause = { kind: 'JOB', mappingJobId } as const;
  // The feed's last commit is read before the laid-over entries: one committed after it moves the
  // head, and the commit then fails and takes that entry in too.
  const finished = await ports.log.onTop(
    organizationId,
    async (): Promise<FeedStep<{ sequence: number; laidOver: LaidOverEntry[] } | undefined>> => {
      const laidOver = await ports.store.laidOverAll(organizationId);
      const newer = laidOver.filter((laid) => laid.sequence > write.foldThrough);
      const reapplied = (await reappliedOver(newer, write, state, parts, source, ports.clock.now().toISOString())).slice(
        0,
        REAPPLIED_COMMIT_ENTRIES,
      );
      if (reapplied.length > 0) {
        // Committed or not, the laid-over entries are read again: what is left is applied in the next round.
        return {
          kind: 'COMMIT',
          commit: { cause, changes: reapplied.map((outcome) => changeOf(outcome.change, outcome.entry)) },
          writes: (next) => reapplied.map((outcome) => ports.store.layOverItem(organizationId, outcome.entry, next)),
          settle: () => ({ kind: 'AGAIN' }),
        };
      }
      const files = await changesStillStanding(ports, organizationId, write, parts, newer);
      const counts = sumCounts(files.map((file) => file.counts));
      const finish = (next: number) =>
        ports.store.finishWriteItems(organizationId, mappingJobId, next, {
          ...(write.mappedAgainst && { mappedAgainst: write.mappedAgainst }),
          ...(listedWhole && { listedWhole }),
        });
      // A write that changes no entry (the same inventory again) becomes the book's without moving the feed or telling anyone.
      const changesEntries = counts.new + counts.updated + counts.deleted > 0;
      return {
        kind: 'COMMIT',
        ...(changesEntries && { commit: { cause, changes: { files } } }),
        writes: (next) =>
          changesEntries
            ? [
                ...finish(next),
                ports.store.eventItem(bookChangedEvent(organizationId, next, cause, counts, ports.clock.now().toISOString())),
              ]
            : finish(next),
        // Refused: another delivery of this message finished the write first.
        settle: (attempted) => ({
          kind: 'DONE',
          result: attempted.kind === 'COMMITTED' ? { sequence: attempted.sequence, laidOver } : undefined,
        }),
      };
    },
  );
  if (!finished) return (await ports.store.write(organizationId, mappingJobId))?.sequence;
  const { sequence, laidOver } = finished;
  // The decisions the generation folded in are in it now: the table keeps only the ones since.
  await ports.store.removeFolded(
    organizationId,
    laidOver.filter((laid) => laid.sequence <= write.foldThrough),
  );
  // The generation this one replaces, and the segments merged into the write's, go a day later: readers that opened them finish.
  await ports.files.expireLater(
    previous ? [snapshotFiles.manifest(organizationId, previous.manifest.generation), ...previous.newest(write.mergeFrom).files()] : [],
  );
  // The write's own segment, when empty, was never read: its parts' manifests go now.
  if (segment.entries === 0) await ports.files.delete(segmentFiles(organizationId, mappingJobId, write.ranges));
  // Rows mapped against an earlier publication than the book follows: the changes since are taken into them too.
  const { followed } = await ports.store.state(organizationId);
  if (write.mappedAgainst && followed && write.mappedAgainst.number < followed.number) {
    await ports.follows.send({
      organizationId,
      referenceVersionId: followed.referenceVersionId,
      since: write.mappedAgainst.referenceVersionId,
    });
  }
  return sequence;
}

/** The book's newest whole inventory per source, with the write's sources where its inventory is newer. */
function newestWhole(state: BookState, write: JobWrite): Record<string, string> {
  const listedAt = listedAtOf(write);
  const newer = write.sources.filter((source) => !unlistedSince(state, source, listedAt));
  return { ...state.listedWhole, ...Object.fromEntries(newer.map((source) => [source, listedAt])) };
}

/**
 * The write's rows and removals applied again over the entries laid over since it began (`newer`),
 * where that changes them: what the write did to each is computed on the entry before, and the one
 * laid over is newer. Read per range from the job's rows, only in ranges such an entry falls in.
 */
async function reappliedOver(
  newer: readonly LaidOverEntry[],
  write: JobWrite,
  state: Pick<BookState, 'listedWhole'>,
  parts: readonly PartManifest<RangeChanges>[],
  source: JobRowsSource,
  at: string,
): Promise<Required<Outcome>[]> {
  const endingSources = new Set(write.partial ? [] : write.sources);
  const outcomes: Required<Outcome>[] = [];
  const { firstIds } = await source.outline();
  for (const part of parts) {
    const inRangeOf = newer.filter((laid) => inRange(entryKey(laid.entry), part.extra.bounds));
    if (inRangeOf.length === 0) continue;
    const rows = new Map((await rowsIn(source, firstIds, part.extra.bounds)).map((row) => [entryKey(row), row]));
    for (const { entry } of inRangeOf) {
      const row = rows.get(entryKey(entry));
      const listedAt = listedAtOf(write);
      const listed = asLastListed(entry, state);
      const outcome = row
        ? applyJobRow(listed, row, at, write.mappingJobId, listedAt)
        : endingSources.has(entry.source)
          ? applyRemoval(listed, at, write.mappingJobId, listedAt)
          : undefined;
      if (outcome?.change !== undefined) outcomes.push({ entry: outcome.entry, change: outcome.change });
    }
  }
  return outcomes;
}

/**
 * The write's changes files, less the changes to entries laid over since the write began (`newer`):
 * those entries stay laid over, the write's rows applied again over them (reappliedOver) with changes
 * of their own. A file of its own per range that loses changes.
 */
async function changesStillStanding(
  ports: Pick<BookPorts, 'feedFiles' | 'kept'>,
  organizationId: string,
  write: JobWrite,
  parts: readonly PartManifest<RangeChanges>[],
  newer: readonly LaidOverEntry[],
): Promise<ChangesFile[]> {
  const newerKeys = newer.map((laid) => entryKey(laid.entry));
  const superseded = new Set(newerKeys);
  const attempt = randomUUID().slice(0, 8);
  const files: ChangesFile[] = [];
  for (const [range, part] of parts.entries()) {
    const { bounds, changes } = part.extra;
    if (!newerKeys.some((key) => inRange(key, bounds))) {
      if (changes.count > 0) files.push(changes);
      continue;
    }
    const kept = (await readChangesFile({ files: ports.feedFiles, reads: ports.kept.files }, changes)).filter(
      (change) => !superseded.has(entryKey(change)),
    );
    // A file of its own: an earlier attempt's commit may name the first one.
    if (kept.length > 0)
      files.push(await writeChangesFile(ports.feedFiles, changesFileKey(organizationId, write.mappingJobId, range, attempt), kept));
  }
  return files;
}

/**
 * A write whose start or range failed every delivery gives the book back, so that later jobs are
 * written; the job's own rows reach the book with the next job over its inventory. The files it
 * wrote expire a day later. A write already committed is left as it is.
 */
export async function abandonJobWrite(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  mappingJobId: string,
): Promise<void> {
  const write = await ports.store.write(organizationId, mappingJobId);
  if (write?.sequence !== undefined) return;
  await ports.store.abandonWrite(organizationId, mappingJobId);
  if (!write) return;
  const written = await Promise.all(
    [snapshotFiles.manifest(organizationId, mappingJobId), ...segmentFiles(organizationId, mappingJobId, write.ranges)].map(async (key) =>
      (await ports.files.size(key)) === undefined ? undefined : key,
    ),
  );
  await ports.files.expireLater(written.filter((key): key is string => key !== undefined));
}
