/**
 * The book's items in the single table:
 *
 * - `BOOK#org / STATE`: the current generation (snapshot.ts), and the job being written into the
 *   book, if any (one at a time: it folds the laid-over entries into the next generation).
 * - `BOOK#org / WRITE#job`: a job's write into the book: its ranges, the ones done (a number set, so a
 *   redelivered range counts once), and the last sequence it folds.
 * - `BOOK#org#ENTRIES / <entry key>`: an entry a person or the reference changed since the generation
 *   was written, as it now is, with the sequence of the commit that changed it.
 * - `BOOK#org / EXPORT#source`: the book's export of a source (exports.ts).
 * - `BOOKS / org`: every organization with a book, for the reference's changes to reach each.
 * - the change log's head and commits (change-log.ts).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../platform/clock';
import type { DomainEvent } from '../platform/events/events';
import { eventPut } from '../platform/events/outbox';
import { batchGet, isConditionFailure, queryAll, transactWrite, type Table, type TransactItem } from '../platform/table';
import type { BookEntry } from './entries';
import type { ResolvedExportFormat } from '../export-format';
import { entryKey, type KeyRange } from './keys';

export interface BookState {
  generation?: string;
  /** The job being written into the book. */
  writing?: string;
  /** The last reference publication the book followed (reference-follow.ts). */
  followed?: Publication;
  /**
   * Per source, when the newest whole inventory written was uploaded: a hotel it did not list that
   * an older inventory lists is not written (an entry it ended, or never had).
   */
  listedWhole?: Record<string, string>;
}

/**
 * The entry with the time its partner last listed it. A whole inventory lists every entry of its
 * source it leaves standing without writing again those it leaves as they were: the book's newest
 * whole inventory of the source stands for their own time when it is later.
 */
export function asLastListed<Entry extends BookEntry>(entry: Entry, state: Pick<BookState, 'listedWhole'>): Entry {
  const whole = state.listedWhole?.[entry.source];
  if (entry.status === 'DELETED' || whole === undefined || (entry.listedAt !== undefined && entry.listedAt >= whole)) return entry;
  return { ...entry, listedAt: whole };
}

/** Whether a row an inventory uploaded at `listedAt` gives for a hotel the book has no entry of is older than the book's last whole inventory of its source. */
export function unlistedSince(state: Pick<BookState, 'listedWhole'>, source: string, listedAt: string): boolean {
  const whole = state.listedWhole?.[source];
  return whole !== undefined && whole > listedAt;
}

/** A reference publication, and its number (publications are numbered in the order they are made). */
export interface Publication {
  referenceVersionId: string;
  number: number;
}

export interface JobWrite {
  mappingJobId: string;
  ranges: number;
  doneRanges?: Set<number>;
  /** Laid-over entries of sequences up to this are folded into the generation the write makes. */
  foldThrough: number;
  /** The book's segments from this one on are merged into the write's own (snapshot.ts). */
  mergeFrom: number;
  /** The book sources the job's rows belong to: only their entries can end. */
  sources: string[];
  /** A partial inventory ends no entry. */
  partial: boolean;
  /** When the write began: every change it makes is dated so, and a range written again writes the same bytes. */
  startedAt: string;
  /** Set once the write is committed. */
  sequence?: number;
  /** Set when the write gave the book back unfinished: its late ranges write nothing. */
  abandoned?: boolean;
  /** The reference publication the job mapped against. */
  mappedAgainst?: Publication;
  /** When the job's inventory was uploaded (writes planned before it was recorded: none). */
  listedAt?: string;
}

/** The book's export of one source, as the table keeps it. */
export interface BookExport {
  exportId: string;
  source: string;
  status: 'PREPARING' | 'READY';
  format: ResolvedExportFormat;
  requestedAt: string;
  /** Set when ready: the feed's position the file was read at, the file, and its rows. */
  position?: string;
  readyAt?: string;
  key?: string;
  rowCount?: number;
}

/** From this many entries asked for, the laid-over ones are first looked for with one Query of them all. */
const LAID_OVER_QUERY_FROM = 10;
/** How long a book found with more laid-over entries than asked for is read by key only. */
const MANY_LAID_OVER_KEPT_MS = 10 * 60_000;

/** An entry laid over the generation: newer than it when `sequence` is above what the generation folded. */
export interface LaidOverEntry {
  entry: BookEntry;
  sequence: number;
}

const keys = {
  state: (organizationId: string) => ({ PK: `BOOK#${organizationId}`, SK: 'STATE' }),
  write: (organizationId: string, mappingJobId: string) => ({ PK: `BOOK#${organizationId}`, SK: `WRITE#${mappingJobId}` }),
  entries: (organizationId: string) => `BOOK#${organizationId}#ENTRIES`,
  books: 'BOOKS',
  bookExport: (organizationId: string, source: string) => ({ PK: `BOOK#${organizationId}`, SK: `EXPORT#${source}` }),
};

export class BookStore {
  /** Books whose laid-over entries were lately more than a request asked for, until when (ms): read by key there. */
  private readonly manyLaidOver = new Map<string, number>();

  constructor(
    readonly table: Table,
    private readonly clock: Clock,
  ) {}

  async state(organizationId: string): Promise<BookState> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.state(organizationId), ConsistentRead: true }),
    );
    return {
      ...(Item?.generation !== undefined && { generation: Item.generation as string }),
      ...(Item?.writing !== undefined && { writing: Item.writing as string }),
      ...(Item?.followed !== undefined && { followed: Item.followed as BookState['followed'] }),
      ...(Item?.listedWhole !== undefined && { listedWhole: Item.listedWhole as BookState['listedWhole'] }),
    };
  }

  /** The organizations with a book, a page at a time after `after`; the last one's id to go on from, or null at the end. */
  async books(after: string | null, limit: number): Promise<{ organizationIds: string[]; next: string | null }> {
    const { Items = [], LastEvaluatedKey } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :books',
        ExpressionAttributeValues: { ':books': keys.books },
        ...(after !== null && { ExclusiveStartKey: { PK: keys.books, SK: after } }),
        Limit: limit,
      }),
    );
    const organizationIds = Items.map((item) => item.SK as string);
    return { organizationIds, next: LastEvaluatedKey ? organizationIds[organizationIds.length - 1]! : null };
  }

  /** The book's export of a source, if one was asked for. */
  async bookExport(organizationId: string, source: string): Promise<BookExport | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.bookExport(organizationId, source), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { PK: _pk, SK: _sk, ...held } = Item;
    return held as BookExport;
  }

  /** Puts a new export in place of `replaced` (none: the first); false when another request replaced it first. */
  async replaceExport(organizationId: string, next: BookExport, replaced: string | undefined): Promise<boolean> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.bookExport(organizationId, next.source), ...next },
          ...(replaced === undefined
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : { ConditionExpression: 'exportId = :replaced', ExpressionAttributeValues: { ':replaced': replaced } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Gives a claimed export up (its message could not be sent), unless another request has replaced it. */
  async releaseExport(organizationId: string, source: string, exportId: string): Promise<void> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.bookExport(organizationId, source),
          ConditionExpression: 'exportId = :id',
          ExpressionAttributeValues: { ':id': exportId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Marks the export ready, unless a later request replaced it meanwhile. */
  async exportReady(organizationId: string, ready: BookExport): Promise<void> {
    await this.replaceExport(organizationId, ready, ready.exportId);
  }

  /** Records the publication the book has followed, with the event that tells the partner of its changes (none when it changed nothing). */
  async finishFollow(organizationId: string, followed: Publication | undefined, event: DomainEvent | undefined): Promise<void> {
    // Never back to an earlier publication than one a follow that finished first recorded.
    await transactWrite(this.table, [
      ...(followed
        ? [
            {
              Update: {
                TableName: this.table.name,
                Key: keys.state(organizationId),
                UpdateExpression: 'SET followed = :followed',
                ConditionExpression: 'attribute_not_exists(followed) OR followed.#number < :number',
                ExpressionAttributeNames: { '#number': 'number' },
                ExpressionAttributeValues: { ':followed': followed, ':number': followed.number },
              },
            },
          ]
        : []),
      ...(event ? [eventPut(this.table, event)] : []),
    ]);
  }

  /** Takes the book for the job's write; false while another job's write holds it. */
  async beginWriting(organizationId: string, mappingJobId: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.state(organizationId),
          UpdateExpression: 'SET writing = :job',
          ConditionExpression: 'attribute_not_exists(writing) OR writing = :job',
          ExpressionAttributeValues: { ':job': mappingJobId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Records the job's write once (a repeated call keeps the first), and answers it as stored. */
  async planWrite(organizationId: string, write: JobWrite): Promise<JobWrite> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.write(organizationId, write.mappingJobId), ...write },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    return (await this.write(organizationId, write.mappingJobId))!;
  }

  async write(organizationId: string, mappingJobId: string): Promise<JobWrite | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.write(organizationId, mappingJobId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { PK: _pk, SK: _sk, ...write } = Item;
    return write as JobWrite;
  }

  /** Counts a range of the write as done; answers the write as it now is. */
  async rangeDone(organizationId: string, mappingJobId: string, range: number): Promise<JobWrite> {
    const { Attributes } = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.write(organizationId, mappingJobId),
        UpdateExpression: 'ADD doneRanges :range',
        ExpressionAttributeValues: { ':range': new Set([range]) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const { PK: _pk, SK: _sk, ...write } = Attributes!;
    return write as JobWrite;
  }

  /** Gives the book back when a job's write cannot finish, and marks the write abandoned: the next job's write starts from the generation as it is. */
  async abandonWrite(organizationId: string, mappingJobId: string): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.write(organizationId, mappingJobId),
        UpdateExpression: 'SET abandoned = :yes',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.state(organizationId),
          UpdateExpression: 'REMOVE writing',
          ConditionExpression: 'writing = :job',
          ExpressionAttributeValues: { ':job': mappingJobId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** The writes that make the write's generation the book's, and end the write, in the commit's transaction. */
  finishWriteItems(
    organizationId: string,
    mappingJobId: string,
    sequence: number,
    options: { mappedAgainst?: Publication; listedWhole?: Record<string, string> },
  ): TransactItem[] {
    const { mappedAgainst, listedWhole } = options;
    // A book that followed no publication yet follows the one its first job mapped against.
    const sets = [
      'generation = :job',
      ...(mappedAgainst ? ['followed = if_not_exists(followed, :mapped)'] : []),
      ...(listedWhole ? ['listedWhole = :listedWhole'] : []),
    ];
    return [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.state(organizationId),
          // The write holds the book: what it read of listedWhole is still so.
          UpdateExpression: `SET ${sets.join(', ')} REMOVE writing`,
          ConditionExpression: 'writing = :job',
          ExpressionAttributeValues: {
            ':job': mappingJobId,
            ...(mappedAgainst && { ':mapped': mappedAgainst }),
            ...(listedWhole && { ':listedWhole': listedWhole }),
          },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: keys.write(organizationId, mappingJobId),
          UpdateExpression: 'SET #sequence = :sequence',
          ExpressionAttributeNames: { '#sequence': 'sequence' },
          ExpressionAttributeValues: { ':sequence': sequence },
        },
      },
      // Listed among the books the reference's changes reach (written again by each write: a put of the same item).
      { Put: { TableName: this.table.name, Item: { PK: keys.books, SK: organizationId } } },
    ];
  }

  /** The write that records an event (the outbox), in the commit's transaction. */
  eventItem(event: DomainEvent): TransactItem {
    return eventPut(this.table, event);
  }

  /**
   * The entries laid over the generation of each of `entries` (undefined where none). For many, one
   * Query first reads every laid-over entry when there are no more of them than asked for (a book
   * whose decisions a job's write folded in lately), for a read unit per 4 KB read instead of one per
   * key; else, or for few, the keys are read (one round trip per 100). A book found with more is read
   * by key for a while, so the Query is not paid for on each request.
   */
  async laidOverMany(
    organizationId: string,
    entries: readonly Pick<BookEntry, 'partnerHotelId' | 'source'>[],
  ): Promise<(LaidOverEntry | undefined)[]> {
    const wanted = entries.map((entry) => entryKey(entry));
    let items: (Record<string, unknown> | undefined)[] | undefined;
    const now = this.clock.now().getTime();
    if (entries.length >= LAID_OVER_QUERY_FROM && (this.manyLaidOver.get(organizationId) ?? 0) < now) {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.entries(organizationId) },
          Limit: entries.length,
          ConsistentRead: true,
        }),
      );
      if (page.LastEvaluatedKey) {
        this.manyLaidOver.set(organizationId, now + MANY_LAID_OVER_KEPT_MS);
      } else {
        const bySortKey = new Map((page.Items ?? []).map((item) => [item.SK as string, item]));
        items = wanted.map((key) => bySortKey.get(key));
      }
    }
    items ??= await batchGet(
      this.table,
      wanted.map((key) => ({ PK: keys.entries(organizationId), SK: key })),
    );
    return items.map((item) => item && { entry: item.entry as BookEntry, sequence: item.sequence as number });
  }

  /** The laid-over entries with keys in the range, in key order. */
  async laidOverIn(organizationId: string, range: KeyRange): Promise<LaidOverEntry[]> {
    const conditions: string[] = ['PK = :pk'];
    const values: Record<string, unknown> = { ':pk': keys.entries(organizationId) };
    if (range.lower !== null && range.upper !== null) {
      conditions.push('SK BETWEEN :lower AND :upper');
      Object.assign(values, { ':lower': range.lower, ':upper': range.upper });
    } else if (range.lower !== null) {
      conditions.push('SK >= :lower');
      values[':lower'] = range.lower;
    } else if (range.upper !== null) {
      conditions.push('SK <= :upper');
      values[':upper'] = range.upper;
    }
    const items = await queryAll<LaidOverEntry>(this.table, {
      KeyConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: values,
      ConsistentRead: true,
    });
    // BETWEEN takes its upper bound in; the range leaves it out.
    return items
      .map(({ entry, sequence }) => ({ entry, sequence }))
      .filter((laid) => range.upper === null || entryKey(laid.entry) !== range.upper);
  }

  /** Every laid-over entry: those decided since the generation (a committed write removes what it folded). */
  laidOverAll(organizationId: string): Promise<LaidOverEntry[]> {
    return this.laidOverIn(organizationId, { lower: null, upper: null });
  }

  /** Removes laid-over entries a committed generation folded in, unless decided again since (their sequence moved on). */
  async removeFolded(organizationId: string, folded: readonly LaidOverEntry[]): Promise<void> {
    for (const laid of folded) {
      try {
        await this.table.client.send(
          new DeleteCommand({
            TableName: this.table.name,
            Key: { PK: keys.entries(organizationId), SK: entryKey(laid.entry) },
            ConditionExpression: '#sequence = :sequence',
            ExpressionAttributeNames: { '#sequence': 'sequence' },
            ExpressionAttributeValues: { ':sequence': laid.sequence },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
  }

  /** The write that lays an entry over the generation, in the commit's transaction. */
  layOverItem(organizationId: string, entry: BookEntry, sequence: number): TransactItem {
    return { Put: { TableName: this.table.name, Item: { PK: keys.entries(organizationId), SK: entryKey(entry), entry, sequence } } };
  }
}
