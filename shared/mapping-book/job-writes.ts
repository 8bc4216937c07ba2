/**
 * A completed job written into the book, in ranges of partner ids on the queues, so that no write
 * rests on one function's time and a redelivered range writes nothing twice:
 *
 * 1. `startJobWrite` takes the book (one job's write at a time), cuts the job's rows into ranges and
 *    notes the last sequence of the feed: laid-over entries up to it are folded into the write.
 * 2. `writeJobRange`, once per range and in parallel: the range's rows against the range's entries
 *    (the generation's, with the laid-over ones folded in) by the rules of entries.ts, written as a
 *    part of the next generation with the range's changes beside it. The same range written again
 *    writes the same files.
 * 3. The last range done commits the write (`finishJobWrite`): the next generation becomes the
 *    book's in the transaction that puts the changes in the feed. An entry that changed while the
 *    write ran (a person's decision, a publication followed, answers recorded) is laid over the
 *    generation and stays so: the write's row or removal is applied again over it, by the same rules
 *    (a decision stands unless the partner's hotel changed; a hotel the inventory no longer lists
 *    ends), in commits of its own just before the write's.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock';
import type { ObjectStore } from '../platform/objects/object-store';
import { inUtf8Order } from '../platform/objects/block-files';
import type { EventData, PartnerEvent } from '../events';
import { changeOf, formatPosition, readChangesFile, sumCounts, writeChangesFile, type BookChange, type ChangeCounts, type ChangeLog, type ChangesFile } from './change-log';
import { BOOK_CHANGES_PREFIX } from './files';
import { applyJobRow, applyRemoval, type JobRow, type Outcome } from './entries';
import { entryKey, generationFiles, inRange, partFiles, snapshotFiles, Snapshot, writeManifest, writePart, type KeyRange, type PartIndex, type SnapshotEntry, withoutFolded } from './snapshot';
import { unlistedSince, type BookState, type BookStore, type JobWrite, type LaidOverEntry, type Publication } from './store';
import type { Queue } from '../platform/queue/queue';
import type { FollowMessage } from './reference-follow';

/** Blocks of the job's rows (500 each) per range: 10,000 rows, a few seconds' work. */
export const RANGE_BLOCKS = 20;

/** The job's rows in partner id order, a block at a time (the job's results views). */
export interface JobRowsSource {
  outline(): Promise<{ firstIds: string[]; sources: string[] }>;
  rows(fromBlock: number, toBlock: number): Promise<JobRow[]>;
}

export interface BookPorts {
  store: BookStore;
  log: ChangeLog;
  /** Where a job mapped against an earlier publication than the book follows is brought up to it. */
  readonly follows: Pick<Queue<FollowMessage>, 'send' | 'sendAll'>;
  /** The generations' files (the files bucket). */
  files: Pick<ObjectStore, 'get' | 'put' | 'expireLater' | 'size'>;
  /** The feed's files (the results bucket). */
  feedFiles: Pick<ObjectStore, 'get' | 'put'>;
  clock: Clock;
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
}

/** Where a completed job's rows stand in the book: its write not begun, under way, committed, or given up. */
export type JobWriteStatus = 'WAITING' | 'WRITING' | 'WRITTEN' | 'ABANDONED';

export async function jobWriteStatus(ports: Pick<BookPorts, 'store'>, organizationId: string, mappingJobId: string): Promise<JobWriteStatus> {
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
  const write = await ports.store.planWrite(organizationId, {
    mappingJobId,
    ranges: Math.max(1, Math.ceil(firstIds.length / RANGE_BLOCKS)),
    foldThrough: await ports.log.lastSequence(organizationId),
    sources,
    partial: request.partial,
    startedAt: ports.clock.now().toISOString(),
    listedAt: request.listedAt,
    ...(request.mappedAgainst && { mappedAgainst: request.mappedAgainst }),
  });
  return write.ranges;
}

/** The partner ids a range covers: from its first block's first id up to the next range's. */
function rangeBounds(firstIds: readonly string[], range: number, ranges: number): KeyRange {
  return {
    lower: range === 0 ? null : firstIds[range * RANGE_BLOCKS]!,
    upper: range + 1 >= ranges ? null : firstIds[(range + 1) * RANGE_BLOCKS]!,
  };
}

const changesFileKey = (organizationId: string, mappingJobId: string, range: number, attempt?: string) =>
  `${BOOK_CHANGES_PREFIX}${organizationId}/${mappingJobId}/${String(range).padStart(5, '0')}${attempt ? `-${attempt}` : ''}`;

/** What a range's part index carries beside its entries: its changes file. */
interface RangeChanges {
  bounds: KeyRange;
  changes: ChangesFile;
}

export async function writeJobRange(ports: BookPorts, request: { organizationId: string; mappingJobId: string; range: number }, source: JobRowsSource): Promise<void> {
  const { organizationId, mappingJobId, range } = request;
  const write = await ports.store.write(organizationId, mappingJobId);
  if (!write || write.sequence !== undefined || write.abandoned) return;
  if (!write.doneRanges?.has(range)) {
    const state = await ports.store.state(organizationId);
    const { firstIds } = await source.outline();
    const bounds = rangeBounds(firstIds, range, write.ranges);
    const [rows, snapshot, laidOver] = await Promise.all([
      source.rows(range * RANGE_BLOCKS, (range + 1) * RANGE_BLOCKS),
      Snapshot.open(ports.files, organizationId, state.generation),
      ports.store.laidOverIn(organizationId, bounds),
    ]);
    const current = new Map<string, SnapshotEntry>();
    for (const entry of (await snapshot?.entriesIn(bounds)) ?? []) current.set(entryKey(entry), entry);
    // Decisions made before the write began are folded in; later ones stay laid over, and win.
    for (const laid of laidOver) {
      const key = entryKey(laid.entry);
      if (laid.sequence <= write.foldThrough && laid.sequence > (current.get(key)?.folded ?? 0)) current.set(key, { ...laid.entry, folded: laid.sequence });
    }
    const rowOf = new Map(rows.map((row) => [entryKey(row), row]));
    const endingSources = new Set(write.partial ? [] : write.sources);
    const at = write.startedAt;
    const listedAt = listedAtOf(write);
    const entries: SnapshotEntry[] = [];
    const changes: BookChange[] = [];
    for (const key of inUtf8Order([...new Set([...current.keys(), ...rowOf.keys()])], (key) => key, 1)) {
      if (!inRange(key, bounds)) continue;
      const before = current.get(key);
      const listed = rowOf.get(key);
      // A hotel the book's newest whole inventory of its source left out stays out.
      const row = before === undefined && listed && unlistedSince(state, listed.source, listedAt) ? undefined : listed;
      if (before === undefined && row === undefined) continue;
      const outcome = row
        ? applyJobRow(before && withoutFolded(before), row, at, mappingJobId, listedAt)
        : before && endingSources.has(before.source)
          ? applyRemoval(withoutFolded(before), at, mappingJobId, listedAt)
          : { entry: before! };
      entries.push({ ...outcome.entry, folded: before?.folded ?? 0 });
      if (outcome.change) changes.push(changeOf(outcome.change, outcome.entry));
    }
    const extra: RangeChanges = { bounds, changes: await writeChangesFile(ports.feedFiles, changesFileKey(organizationId, mappingJobId, range), changes) };
    await writePart(ports.files, organizationId, mappingJobId, range, entries, extra);
  }
  const done = await ports.store.rangeDone(organizationId, mappingJobId, range);
  if (done.doneRanges?.size === done.ranges) await finishJobWrite(ports, organizationId, mappingJobId, source);
}

/** MAPPING_BOOK_CHANGED: a batch of changes written, and where to read them from. */
function bookChangedEvent(organizationId: string, sequence: number, cause: EventData<'MAPPING_BOOK_CHANGED'>['cause'], counts: ChangeCounts, at: string): PartnerEvent {
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
export async function finishJobWrite(ports: BookPorts, organizationId: string, mappingJobId: string, source: JobRowsSource): Promise<number | undefined> {
  const write = await ports.store.write(organizationId, mappingJobId);
  if (!write || write.sequence !== undefined || write.abandoned) return write?.sequence;
  const parts = await writeManifest<RangeChanges>(ports.files, organizationId, mappingJobId, write.ranges);
  const state = await ports.store.state(organizationId);
  const previous = state.generation;
  const listedWhole = write.partial ? undefined : newestWhole(state, write);
  const cause = { kind: 'JOB', mappingJobId } as const;
  for (;;) {
    // The feed's last commit is read before the laid-over entries: one committed after it moves the
    // head, and the commit below then fails and takes that entry in too.
    const last = await ports.log.lastSequence(organizationId);
    const laidOver = await ports.store.laidOverAll(organizationId);
    const newer = laidOver.filter((laid) => laid.sequence > write.foldThrough);
    const reapplied = (await reappliedOver(newer, write, parts, source, ports.clock.now().toISOString())).slice(0, REAPPLIED_COMMIT_ENTRIES);
    if (reapplied.length > 0) {
      // Committed or not, the laid-over entries are read again: what is left is applied in the next round.
      await ports.log.commitAfter(organizationId, last, cause, reapplied.map((outcome) => changeOf(outcome.change, outcome.entry)), (next) =>
        reapplied.map((outcome) => ports.store.layOverItem(organizationId, outcome.entry, next)),
      );
      continue;
    }
    const files = await changesStillStanding(ports, organizationId, write, parts, newer);
    const counts = sumCounts(files.map((file) => file.counts));
    const finish = (next: number) =>
      ports.store.finishWriteItems(organizationId, mappingJobId, next, { ...(write.mappedAgainst && { mappedAgainst: write.mappedAgainst }), ...(listedWhole && { listedWhole }) });
    // A write that changes no entry (the same inventory again) becomes the book's without moving the feed or telling anyone.
    const sequence =
      counts.new + counts.updated + counts.deleted === 0
        ? await ports.log.writeUnchangedAfter(organizationId, last, finish)
        : await ports.log.commitAfter(organizationId, last, cause, { files }, (next) => [
            ...finish(next),
            ports.store.eventItem(bookChangedEvent(organizationId, next, cause, counts, ports.clock.now().toISOString())),
          ]);
    if (sequence === 'moved') continue;
    if (sequence === undefined) return (await ports.store.write(organizationId, mappingJobId))?.sequence;
    // The decisions the generation folded in are in it now: the table keeps only the ones since.
    await ports.store.removeFolded(organizationId, laidOver.filter((laid) => laid.sequence <= write.foldThrough));
    // The generation this one replaces goes a day later: readers that opened it finish.
    if (previous !== undefined && previous !== mappingJobId) await ports.files.expireLater(await generationFiles(ports.files, organizationId, previous));
    // Rows mapped against an earlier publication than the book follows: the changes since are taken into them too.
    const { followed } = await ports.store.state(organizationId);
    if (write.mappedAgainst && followed && write.mappedAgainst.number < followed.number) {
      await ports.follows.send({ organizationId, referenceVersionId: followed.referenceVersionId, since: write.mappedAgainst.referenceVersionId });
    }
    return sequence;
  }
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
async function reappliedOver(newer: readonly LaidOverEntry[], write: JobWrite, parts: readonly PartIndex<RangeChanges>[], source: JobRowsSource, at: string): Promise<Required<Outcome>[]> {
  const endingSources = new Set(write.partial ? [] : write.sources);
  const outcomes: Required<Outcome>[] = [];
  for (const [range, part] of parts.entries()) {
    const inRangeOf = newer.filter((laid) => inRange(entryKey(laid.entry), part.extra.bounds));
    if (inRangeOf.length === 0) continue;
    const rows = new Map((await source.rows(range * RANGE_BLOCKS, (range + 1) * RANGE_BLOCKS)).map((row) => [entryKey(row), row]));
    for (const { entry } of inRangeOf) {
      const row = rows.get(entryKey(entry));
      const listedAt = listedAtOf(write);
      const outcome = row ? applyJobRow(entry, row, at, write.mappingJobId, listedAt) : endingSources.has(entry.source) ? applyRemoval(entry, at, write.mappingJobId, listedAt) : undefined;
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
  ports: Pick<BookPorts, 'feedFiles'>,
  organizationId: string,
  write: JobWrite,
  parts: readonly PartIndex<RangeChanges>[],
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
    const kept = (await readChangesFile(ports.feedFiles, changes)).filter((change) => !superseded.has(entryKey(change)));
    // A file of its own: an earlier attempt's commit may name the first one.
    if (kept.length > 0) files.push(await writeChangesFile(ports.feedFiles, changesFileKey(organizationId, write.mappingJobId, range, attempt), kept));
  }
  return files;
}

/**
 * A write whose start or range failed every delivery gives the book back, so that later jobs are
 * written; the job's own rows reach the book with the next job over its inventory. The files it
 * wrote expire a day later. A write already committed is left as it is.
 */
export async function abandonJobWrite(ports: Pick<BookPorts, 'store' | 'files'>, organizationId: string, mappingJobId: string): Promise<void> {
  const write = await ports.store.write(organizationId, mappingJobId);
  if (write?.sequence !== undefined) return;
  await ports.store.abandonWrite(organizationId, mappingJobId);
  if (!write) return;
  const written = await Promise.all(
    [snapshotFiles.manifest(organizationId, mappingJobId), ...partFiles(organizationId, mappingJobId, write.ranges)].map(async (key) => ((await ports.files.size(key)) === undefined ? undefined : key)),
  );
  await ports.files.expireLater(written.filter((key): key is string => key !== undefined));
}
