/**
 * The book's change feed: every batch of changes (a job written into the book, a decision, a merge,
 * a publication) is a commit numbered by the organization's sequence. The sequence is a head item
 * moved on in the same transaction as the commit and the changes it numbers, on the condition that
 * it still holds the number read: two writers never take one number, and a commit is visible only
 * with every commit before it (DynamoDB serializes transactions on the head item), so a reader that
 * comes back with its position never finds a gap filled behind it.
 *
 * A commit of a few changes holds them; a larger one names a file of them in the results bucket
 * (written before the commit, so a commit never names a missing file). Commits and their files are
 * kept CHANGES_RETENTION_DAYS: a position is valid that long.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { gone, invalidInput } from '../platform/errors';
import { BlockFileWriter, blocksOf, type FileReads } from '../platform/objects/block-files';
import type { ObjectStore } from '../platform/objects/object-store';
import { TABLE_KEYS, transactWrite, withoutKeys, type Table, type TransactItem } from '../platform/table';
import { entrySummary, type BookEntry, type ChangeCause, type ChangeKind, type EntrySummary } from './entries';
import { BOOK_CHANGES_PREFIX, CHANGES_RETENTION_DAYS } from './files';

/** Commits of at most this many changes hold them; larger ones name a file. */
export const INLINE_CHANGES = 25;

/** A change as the feed tells it: the entry as the change left it, without its evidence, decision and history. */
export interface BookChange extends EntrySummary {
  kind: ChangeKind;
}

export function changeOf(kind: ChangeKind, entry: BookEntry): BookChange {
  return { kind, ...entrySummary(entry) };
}

export type ChangeCounts = Record<'new' | 'updated' | 'deleted', number>;

const COUNT_OF_KIND = { NEW: 'new', UPDATED: 'updated', DELETED: 'deleted' } as const satisfies Record<ChangeKind, keyof ChangeCounts>;

export function countChanges(changes: readonly Pick<BookChange, 'kind'>[]): ChangeCounts {
  const counts: ChangeCounts = { new: 0, updated: 0, deleted: 0 };
  for (const change of changes) counts[COUNT_OF_KIND[change.kind]]++;
  return counts;
}

/** A commit as the table keeps it. */
interface Commit {
  sequence: number;
  committedAt: string;
  cause: ChangeCause;
  counts: ChangeCounts;
  changeCount: number;
  changes?: BookChange[];
  changesFiles?: ChangesFile[];
}

/** Changes per block of a changes file: a page of 1,000 reads two or three. */
export const CHANGES_BLOCK = 500;

/**
 * A file of changes that a commit names: Brotli blocks of CHANGES_BLOCK changes laid end to end
 * (platform/objects/block-files.ts), where each block is, and how many of each kind it holds.
 */
export interface ChangesFile {
  key: string;
  count: number;
  counts: ChangeCounts;
  /** Each block's place in the file, CHANGES_BLOCK changes each but the last. */
  blocks: { offset: number; length: number }[];
}

/** The changes of a commit too large to hold them, as files written before it. */
export interface ChangesFiles {
  files: ChangesFile[];
}

/** Writes changes as a changes file under `key`, and answers what a commit says of it. */
export async function writeChangesFile(files: Pick<ObjectStore, 'put'>, key: string, changes: readonly BookChange[]): Promise<ChangesFile> {
  // No changes, no file: a write's request costs as much as a thousand reads of the feed.
  if (changes.length === 0) return { key, count: 0, counts: countChanges(changes), blocks: [] };
  const file = new BlockFileWriter();
  const blocks = blocksOf(changes, CHANGES_BLOCK).map((block) => {
    const { offset, length } = file.add(block, '');
    return { offset, length };
  });
  await files.put(key, file.bytes(), 'application/octet-stream');
  return { key, count: changes.length, counts: countChanges(changes), blocks };
}

/** The feed's files, and what the function keeps of them (a changes file never changes). */
export interface FeedFiles {
  files: Pick<ObjectStore, 'get'>;
  reads: FileReads;
}

/** Block `block` of a changes file. */
export function readChangesBlock({ files, reads }: FeedFiles, file: ChangesFile, block: number): Promise<BookChange[]> {
  return reads.block<BookChange>(files, file.key, { first: '', ...file.blocks[block]! });
}

/** Every change of a changes file. */
export async function readChangesFile(feed: FeedFiles, file: ChangesFile): Promise<BookChange[]> {
  return (await Promise.all(file.blocks.map((_, block) => readChangesBlock(feed, file, block)))).flat();
}

const total = (files: readonly ChangesFile[]) => files.reduce((sum, file) => sum + file.count, 0);

export function sumCounts(counts: readonly ChangeCounts[]): ChangeCounts {
  return counts.reduce(
    (sum, each) => ({ new: sum.new + each.new, updated: sum.updated + each.updated, deleted: sum.deleted + each.deleted }),
    { new: 0, updated: 0, deleted: 0 },
  );
}

/** Changes of one commit counted at a time where it is counted from within (ChangeLog.counts). */
const COUNTED_CHANGES_PAGE = 10_000;

/** A commit with its expiry (epoch seconds, the table's TTL attribute). */
type StoredCommit = Commit & { [TABLE_KEYS.ttlAttribute]: number };

/** A commit item as the table answers it (or the part of it a projection read): the one place an item is taken for a commit. */
const commitOf = (item: Record<string, NativeAttributeValue>): StoredCommit => withoutKeys(item) as StoredCommit;

/**
 * Where a reader stands: every change of commits before `sequence` read, and the first `read` of
 * commit `sequence`. Given to partners as `<sequence>.<read>`, opaque to them.
 */
export interface FeedPosition {
  sequence: number;
  read: number;
}

/** The position before every change. */
export const FEED_START: FeedPosition = { sequence: 1, read: 0 };

export function formatPosition(position: FeedPosition): string {
  return `${position.sequence}.${position.read}`;
}

/** A position as a partner gave it back; 400 when it is not one this feed handed out. */
export function parsePosition(text: string): FeedPosition {
  const match = /^([1-9]\d{0,14})\.(0|[1-9]\d{0,9})$/.exec(text);
  if (!match) throw invalidInput('position: must be a position the feed gave (such as "12.0")');
  return { sequence: Number(match[1]), read: Number(match[2]) };
}

export interface FeedPage {
  changes: BookChange[];
  /** Where to read on from: after the last change of this page. */
  position: FeedPosition;
  /** Whether changes past `position` were already there. */
  more: boolean;
}

const keys = {
  head: (organizationId: string) => ({ PK: `BOOK#${organizationId}`, SK: 'HEAD' }),
  commit: (organizationId: string, sequence: number) => ({
    PK: `BOOK#${organizationId}`,
    SK: `COMMIT#${String(sequence).padStart(15, '0')}`,
  }),
  changesFile: (organizationId: string, sequence: number) =>
    `${BOOK_CHANGES_PREFIX}${organizationId}/${String(sequence).padStart(15, '0')}-${randomUUID().slice(0, 8)}`,
};

/**
 * What a commit on top of the feed came to: committed at a sequence, or refused, with the indexes
 * (in its `writes`) of the writes whose own condition failed (nothing written then).
 */
export type Attempted = { kind: 'COMMITTED'; sequence: number } | { kind: 'REFUSED'; writes: number[] };

/** What a writer does once its attempt is settled: done, with its result, or plan again on the feed as it now stands. */
export type Settled<R> = { kind: 'DONE'; result: R } | { kind: 'AGAIN' };

/**
 * What a writer makes of the feed as it stands after commit `last`: nothing to commit (done), or a
 * commit of its changes (none: the writes alone, the feed unmoved) with the writes that make them,
 * and what to do once it is settled.
 */
export type FeedStep<R> =
  | { kind: 'DONE'; result: R }
  | {
      kind: 'COMMIT';
      commit?: { cause: ChangeCause; changes: readonly BookChange[] | ChangesFiles };
      writes: (sequence: number) => readonly TransactItem[];
      settle: (attempted: Attempted) => Settled<R>;
    };

/** The settling of writes that have no condition of their own: done with the sequence; a refusal is a fault. */
export function doneWithSequence(attempted: Attempted): { kind: 'DONE'; result: number } {
  if (attempted.kind === 'REFUSED') throw new Error(`Writes with no condition of their own were refused: ${attempted.writes.join(', ')}.`);
  return { kind: 'DONE', result: attempted.sequence };
}

/**
 * How long a writer waits before planning again when another commit came first: a growing,
 * jittered pause, so that writers racing for one book's feed take turns instead of colliding again.
 */
export function pauseAfterMoved(attempt: number): number {
  return Math.random() * Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** attempt);
}
const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 200;

export class ChangeLog {
  constructor(
    private readonly table: Table,
    private readonly files: Pick<ObjectStore, 'get' | 'put'>,
    private readonly now: () => Date,
    private readonly reads: FileReads,
  ) {}

  /** The sequence of the last commit (0 before the first). */
  async lastSequence(organizationId: string): Promise<number> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.head(organizationId), ConsistentRead: true }),
    );
    return (Item?.lastSequence as number | undefined) ?? 0;
  }

  /** The position after every change committed so far. */
  async endPosition(organizationId: string): Promise<FeedPosition> {
    return { sequence: (await this.lastSequence(organizationId)) + 1, read: 0 };
  }

  /**
   * Commits the changes with the writes that make them, all or nothing, on top of the feed. Answers
   * the commit's sequence, or undefined when one of `writes`' own conditions failed (nothing written).
   */
  commit(
    organizationId: string,
    cause: ChangeCause,
    changes: readonly BookChange[] | ChangesFiles,
    writes: (sequence: number) => readonly TransactItem[] = () => [],
  ): Promise<number | undefined> {
    return this.onTop(organizationId, async () => ({
      kind: 'COMMIT',
      commit: { cause, changes },
      writes,
      settle: (attempted) => ({ kind: 'DONE', result: attempted.kind === 'COMMITTED' ? attempted.sequence : undefined }),
    }));
  }

  /**
   * The one way a writer commits: `step` reads what it needs as the feed stands after commit `last`
   * and says what to commit; the commit goes in only right after `last`. When another commit came
   * first, nothing is written and the writer plans again on the new head (after pauseAfterMoved).
   */
  async onTop<R>(organizationId: string, step: (last: number) => Promise<FeedStep<R>>): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const last = await this.lastSequence(organizationId);
      const planned = await step(last);
      if (planned.kind === 'DONE') return planned.result;
      const items: TransactItem[] = planned.commit
        ? [
            this.headMoved(organizationId, last),
            await this.commitItem(organizationId, last + 1, planned.commit.cause, planned.commit.changes),
          ]
        : [this.headAt(organizationId, last)];
      const sequence = planned.commit ? last + 1 : last;
      const failed = await transactWrite(this.table, [...items, ...planned.writes(sequence)]);
      if (failed.includes(0)) {
        await new Promise((resolve) => setTimeout(resolve, pauseAfterMoved(attempt)));
        continue;
      }
      const attempted: Attempted =
        failed.length === 0 ? { kind: 'COMMITTED', sequence } : { kind: 'REFUSED', writes: failed.map((index) => index - items.length) };
      const settled = planned.settle(attempted);
      if (settled.kind === 'DONE') return settled.result;
    }
  }

  /** The head, only while it is at `last`. */
  private headAt(organizationId: string, last: number): TransactItem {
    return {
      ConditionCheck: {
        TableName: this.table.name,
        Key: keys.head(organizationId),
        ConditionExpression: last === 0 ? 'attribute_not_exists(lastSequence)' : 'lastSequence = :last',
        ...(last !== 0 && { ExpressionAttributeValues: { ':last': last } }),
      },
    };
  }

  /** The head moved from `last` to the next sequence, only while it is at `last`. */
  private headMoved(organizationId: string, last: number): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.head(organizationId),
        UpdateExpression: 'SET lastSequence = :sequence',
        ConditionExpression: last === 0 ? 'attribute_not_exists(lastSequence)' : 'lastSequence = :last',
        ExpressionAttributeValues: { ':sequence': last + 1, ...(last !== 0 && { ':last': last }) },
      },
    };
  }

  /** The commit's item; its changes inline when they are few, else in a file. */
  private async commitItem(
    organizationId: string,
    sequence: number,
    cause: ChangeCause,
    changes: readonly BookChange[] | ChangesFiles,
  ): Promise<TransactItem> {
    const committedAt = this.now().toISOString();
    let commit: Commit;
    if ('files' in changes) {
      commit = {
        sequence,
        committedAt,
        cause,
        counts: sumCounts(changes.files.map((file) => file.counts)),
        changeCount: total(changes.files),
        changesFiles: changes.files,
      };
    } else if (changes.length <= INLINE_CHANGES) {
      commit = { sequence, committedAt, cause, counts: countChanges(changes), changeCount: changes.length, changes: [...changes] };
    } else {
      // Named after its sequence, so a commit that loses its number writes another file rather than change one a winner may name.
      const file = await writeChangesFile(this.files, keys.changesFile(organizationId, sequence), changes);
      commit = { sequence, committedAt, cause, counts: file.counts, changeCount: changes.length, changesFiles: [file] };
    }
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.commit(organizationId, sequence), ...commit, [TABLE_KEYS.ttlAttribute]: this.expiry(committedAt) },
      },
    };
  }

  /**
   * Changes after `position`, in the order they were committed, at most `limit`. 410 when the
   * position's commit is past its retention, 400 when it is beyond the end of the feed.
   */
  async read(organizationId: string, position: FeedPosition, limit: number, commits = Number.MAX_SAFE_INTEGER): Promise<FeedPage> {
    const end = (await this.lastSequence(organizationId)) + 1;
    if (position.sequence > end || (position.sequence === end && position.read > 0)) {
      throw invalidInput('position: beyond the end of the feed; give back a position the feed gave');
    }
    if (position.sequence === end) return { changes: [], position, more: false };
    const changes: BookChange[] = [];
    let at = position;
    let startKey: Record<string, unknown> | undefined;
    let first = true;
    scan: do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': keys.head(organizationId).PK,
            ':from': keys.commit(organizationId, position.sequence).SK,
            ':to': keys.commit(organizationId, end - 1).SK,
          },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
          Limit: 50,
        }),
      );
      for (const item of page.Items ?? []) {
        const commit = commitOf(item);
        if (first) {
          first = false;
          if (commit.sequence !== position.sequence || this.expired(commit)) throw this.expiredPosition(organizationId, position);
          if (position.read > commit.changeCount) throw invalidInput('position: not a position this feed gave');
        }
        const from = commit.sequence === at.sequence ? at.read : 0;
        const taken = await this.changesOf(commit, from, limit - changes.length);
        for (const change of taken) changes.push(change);
        at =
          from + taken.length === commit.changeCount
            ? { sequence: commit.sequence + 1, read: 0 }
            : { sequence: commit.sequence, read: from + taken.length };
        if (changes.length >= limit || commit.sequence - position.sequence + 1 >= commits) break scan;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    if (first && position.sequence < end) throw this.expiredPosition(organizationId, position);
    return { changes, position: at, more: at.sequence < end };
  }

  /** The position before the oldest change the feed still keeps (the end when it keeps none). */
  async oldestPosition(organizationId: string): Promise<FeedPosition> {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :commit)',
          ExpressionAttributeValues: { ':pk': keys.head(organizationId).PK, ':commit': 'COMMIT#' },
          ProjectionExpression: '#sequence, #expiry',
          ExpressionAttributeNames: { '#sequence': 'sequence', '#expiry': TABLE_KEYS.ttlAttribute },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      const kept = (page.Items ?? []).map(commitOf).find((commit) => !this.expired(commit));
      if (kept) return { sequence: kept.sequence, read: 0 };
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return this.endPosition(organizationId);
  }

  /**
   * The position before the first change committed at or after `since`: a binary search over the
   * commits, which are numbered in the order they were committed (a few reads, however long the
   * feed). 410 when `since` is older than the feed keeps.
   */
  async positionAt(organizationId: string, since: Date): Promise<FeedPosition> {
    if (since.getTime() < this.now().getTime() - CHANGES_RETENTION_DAYS * 86_400_000) {
      throw gone(
        `since: the feed keeps the changes of the last ${CHANGES_RETENTION_DAYS} days; give a later time, or read the book whole.`,
      );
    }
    const wanted = since.toISOString();
    // Commits before `low` came before `since`; commit `high` and the ones after it did not (`high` may be the end).
    let low = (await this.oldestPosition(organizationId)).sequence;
    let high = (await this.lastSequence(organizationId)) + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const { Item } = await this.table.client.send(
        new GetCommand({
          TableName: this.table.name,
          Key: keys.commit(organizationId, middle),
          ProjectionExpression: 'committedAt',
          ConsistentRead: true,
        }),
      );
      // A commit gone meanwhile (past its retention) came before any `since` the feed still keeps.
      if (Item === undefined || (Item.committedAt as string) < wanted) low = middle + 1;
      else high = middle;
    }
    return { sequence: high, read: 0 };
  }

  /** The changes of each kind after `position`, and the position after the last of them. */
  async counts(organizationId: string, position: FeedPosition): Promise<ChangeCounts & { position: FeedPosition }> {
    // The position's own commit is read from where the reader stands, a page at a time (a job's
    // commit may hold a whole book); from its start (read 0: nothing taken, the position checked),
    // and the commits after it, each is counted whole by its counts.
    let page = await this.read(organizationId, position, position.read === 0 ? 0 : COUNTED_CHANGES_PAGE, 1);
    const totals = countChanges(page.changes);
    while (page.position.sequence === position.sequence && page.position.read > 0 && page.changes.length > 0) {
      page = await this.read(organizationId, page.position, COUNTED_CHANGES_PAGE, 1);
      const more = countChanges(page.changes);
      totals.new += more.new;
      totals.updated += more.updated;
      totals.deleted += more.deleted;
    }
    const next = page.position;
    let end = next;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          // '$' follows '#': above every commit's key.
          ExpressionAttributeValues: {
            ':pk': keys.head(organizationId).PK,
            ':from': keys.commit(organizationId, next.sequence).SK,
            ':to': 'COMMIT$',
          },
          ProjectionExpression: '#sequence, #counts',
          ExpressionAttributeNames: { '#sequence': 'sequence', '#counts': 'counts' },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const { sequence, counts } of (page.Items ?? []).map(commitOf)) {
        totals.new += counts.new;
        totals.updated += counts.updated;
        totals.deleted += counts.deleted;
        end = { sequence: sequence + 1, read: 0 };
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return { ...totals, position: end };
  }

  /** The commit's changes from index `from`, at most `limit`, reading only the blocks that hold them. */
  private async changesOf(commit: Commit, from: number, limit: number): Promise<BookChange[]> {
    if (commit.changes) return commit.changes.slice(from, from + limit);
    const taken: BookChange[] = [];
    // The index in the commit of the file's first change.
    let start = 0;
    for (const file of commit.changesFiles ?? []) {
      for (let block = 0; block < file.blocks.length && taken.length < limit; block++) {
        const blockStart = start + block * CHANGES_BLOCK;
        const next = from + taken.length;
        if (Math.min(blockStart + CHANGES_BLOCK, start + file.count) <= next) continue;
        const changes = await readChangesBlock({ files: this.files, reads: this.reads }, file, block);
        taken.push(...changes.slice(next - blockStart, next - blockStart + limit - taken.length));
      }
      start += file.count;
    }
    return taken;
  }

  private expiry(committedAt: string): number {
    return Math.floor(Date.parse(committedAt) / 1000) + CHANGES_RETENTION_DAYS * 86_400;
  }

  /** DynamoDB's TTL removes items within days of their expiry: an expired commit is gone already. */
  private expired(commit: Pick<StoredCommit, 'expiresAt'>): boolean {
    return commit.expiresAt * 1000 <= this.now().getTime();
  }

  private expiredPosition(_organizationId: string, position: FeedPosition) {
    return gone(
      `position: ${formatPosition(position)} is older than the feed keeps (${CHANGES_RETENTION_DAYS} days). ` +
        'Read the book whole (its entries or its export) and follow the feed from the position the book gives.',
    );
  }
}
