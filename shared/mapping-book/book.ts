/**
 * Reading the book and deciding on its entries: an entry is the generation's, unless a laid-over
 * item is newer (store.ts, snapshot.ts).
 */
import { conflict, DomainError, notFound } from '../platform/errors';
import type { TransactItem } from '../platform/table';
import { changeOf, doneWithSequence, type FeedStep, type Settled } from './change-log';
import { blocksOf } from '../platform/objects/block-files';
import {
  applyDecision,
  applyEngineRow,
  applyJobRow,
  applyWithdrawal,
  type BookEntry,
  type EngineAnswer,
  type ChangeCause,
  type EngineCause,
  type JobRow,
  type Outcome,
  type StandingDecision,
  type Withdrawal,
} from './entries';
import type { BookPorts } from './ports';
import { Snapshot, withoutFolded, type EntryAnswer, type SnapshotEntry } from './snapshot';
import { countEntries, type BookStatistics } from './statistics';
import { filterMatches, searchGeneration, type EntryFilter, type PageStart, type ScoredKey } from './entry-search';
import type { AnswerSearch } from '../mapping';
import { unlistedSince } from './store';
import { compareKeys, entryKey, listingKey } from './keys';

export interface EntryId {
  source: string;
  partnerHotelId: string;
}

/** The entry as it now is, or undefined when the book has none. */
export async function currentEntry(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  id: EntryId,
): Promise<BookEntry | undefined> {
  return (await currentEntries(ports, organizationId, [id]))[0];
}

/** Entries as they now are (undefined where the book has none), in the order asked: the book's state and generation read once. */
export function currentEntries(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  ids: readonly EntryId[],
): Promise<(BookEntry | undefined)[]> {
  return laidOverOrWritten(ports, organizationId, ids, async (snapshot, key) => {
    const held = await snapshot.entryAt(key);
    return held && { written: withoutFolded(held), folded: held.folded };
  });
}

/**
 * The answers of entries as they now are (undefined where the book has none), in the order asked:
 * what a lookup needs of them, the generation's kept per function by blocks (Snapshot.answerAt).
 */
export function currentAnswers(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  ids: readonly EntryId[],
): Promise<(EntryAnswer | undefined)[]> {
  return laidOverOrWritten(ports, organizationId, ids, async (snapshot, key) => {
    const held = await snapshot.answerAt(key);
    if (!held) return undefined;
    const { folded, ...written } = held;
    return { written, folded };
  });
}

/**
 * The engine's answers the book holds for a batch of entries (undefined where it holds none), in the
 * order asked: the laid-over items of the batch's key range in one query, and each generation block
 * that holds one of the keys read once, so that a batch of neighbouring keys reads a few blocks.
 */
export async function heldEngineAnswers(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  ids: readonly EntryId[],
): Promise<(EngineAnswer | undefined)[]> {
  if (ids.length === 0) return [];
  const keys = ids.map(entryKey);
  const lowest = keys.reduce((low, key) => (compareKeys(key, low) < 0 ? key : low));
  const highest = keys.reduce((high, key) => (compareKeys(key, high) > 0 ? key : high));
  // The laid-over items first: a generation that folds one in is committed before the item goes.
  const laid = await ports.store.laidOverIn(organizationId, { lower: lowest, upper: `${highest}\u0000` });
  const state = await ports.store.state(organizationId);
  const snapshot = await Snapshot.open(ports, organizationId, state.generation);
  const written = new Map(((await snapshot?.entriesAt(keys)) ?? []).map((entry) => [entryKey(entry), entry]));
  const over = new Map(laid.map((item) => [entryKey(item.entry), item]));
  return keys.map((key) => {
    const held = written.get(key);
    const item = over.get(key);
    return item && item.sequence > (held?.folded ?? 0) ? item.entry.engine : held?.engine;
  });
}

/** Each id's laid-over entry where it is newer than what the generation folded of it, else what the generation holds (`writtenAt`). */
async function laidOverOrWritten<T extends EntryAnswer>(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  ids: readonly EntryId[],
  writtenAt: (snapshot: Snapshot, key: string) => Promise<{ written: T; folded: number } | undefined>,
): Promise<(T | BookEntry | undefined)[]> {
  // The laid-over items first: a generation that folds one in is committed before the item goes.
  const laid = await ports.store.laidOverMany(organizationId, ids);
  const state = await ports.store.state(organizationId);
  const snapshot = await Snapshot.open(ports, organizationId, state.generation);
  return Promise.all(
    ids.map(async (id, i) => {
      const held = snapshot && (await writtenAt(snapshot, entryKey(id)));
      const over = laid[i];
      return over && over.sequence > (held?.folded ?? 0) ? over.entry : held?.written;
    }),
  );
}

/** Entries one commit lays over at most: its transaction also holds the feed's head and the commit. */
const RECORD_COMMIT_ENTRIES = 90;

/**
 * The engine's answers, as the partner listed its hotels at `at`, written over the entries held (in
 * the same order) by the rules a job's rows follow: each entry as it then stands (unchanged ones as held), and the rows that change one, with their outcome.
 */
export function recordingOutcomes(
  held: readonly (BookEntry | undefined)[],
  rows: readonly JobRow[],
  at: string,
  cause: EngineCause,
): { entries: BookEntry[]; changed: (Required<Outcome> & { row: JobRow })[] } {
  const outcomes = rows.map((row, i) => applyEngineRow(held[i], row, at, cause, at));
  return {
    // Unchanged entries keep what the book holds: the answer changed nothing a reader sees.
    entries: outcomes.map((outcome, i) => (outcome.change !== undefined ? outcome.entry : (held[i] ?? outcome.entry))),
    changed: outcomes.flatMap(({ entry, change }, i) => (change !== undefined ? [{ entry, change, row: rows[i]! }] : [])),
  };
}

/**
 * The engine's answers written into the book by the rules a job's rows follow (a person's decision
 * stands unless the partner's hotel changed), laid over the generation and committed to the feed like
 * decisions, up to RECORD_COMMIT_ENTRIES a commit. Answers that change no entry write nothing.
 */
export async function recordEngineRows(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log' | 'clock'>,
  organizationId: string,
  rows: readonly JobRow[],
  cause: EngineCause,
): Promise<void> {
  for (const block of blocksOf(rows, RECORD_COMMIT_ENTRIES)) {
    // Computed on the entries as they stand right after the feed's last commit: another commit first computes them again.
    await ports.log.onTop(organizationId, async (): Promise<FeedStep<number | undefined>> => {
      const { changed } = recordingOutcomes(
        await currentEntries(ports, organizationId, block),
        block,
        ports.clock.now().toISOString(),
        cause,
      );
      if (changed.length === 0) return { kind: 'DONE', result: undefined };
      return {
        kind: 'COMMIT',
        commit: { cause, changes: changed.map((outcome) => changeOf(outcome.change, outcome.entry)) },
        writes: (next) => changed.map((outcome) => ports.store.layOverItem(organizationId, outcome.entry, next)),
        settle: doneWithSequence,
      };
    });
  }
}

export interface DecisionOptions {
  /** The job's row decided on, for an entry its job has not yet written into the book (`listedAt`: its inventory's upload). */
  row?: { mappingJobId: string; row: JobRow; listedAt: string };
  /** Made in the same transaction: the job's own record of the decision. */
  writes?: readonly TransactItem[];
  /** The entry's decision's decidedAt as the person read it (null: none): 409 when it is another. */
  expectedDecidedAt?: string | null;
}

/** What a person does to an entry: decides it (MANUAL from now on), or takes their decision back. */
export type PersonsAct = { kind: 'DECISION'; decision: StandingDecision } | { kind: 'WITHDRAWAL'; withdrawal: Withdrawal };

/** One entry's decision (or withdrawal) among several made at once. */
export interface EntryDecision extends DecisionOptions {
  id: EntryId;
  act: PersonsAct;
}

/**
 * What became of one entry's decision: the entry as decided; refused by the book's rules (a
 * DomainError: not found, conflict); or its own `writes` refused, when conditions of theirs failed
 * (their indexes; nothing written for it).
 */
export type EntryDecisionOutcome =
  { kind: 'DECIDED'; entry: BookEntry } | { kind: 'REFUSED'; error: DomainError } | { kind: 'WRITES_REFUSED'; writes: number[] };

/**
 * Entries one decision commit holds at most: each with its job's records (the decision, the mark
 * hiding the engine's row, the event, the lease check) five items, and the head, the commit and the
 * job's two, within a transaction's hundred.
 */
export const DECISIONS_PER_COMMIT = 19;

/**
 * A person's decision on an entry (MANUAL from now on), with its change in the feed, in one
 * transaction with `writes`: the entry as decided. 404 when the book has no such entry and no row is
 * given; 409 for an entry whose hotel the partner's inventory no longer lists (DELETED), for one
 * decided since `expectedDecidedAt`, and when a condition of `writes` failed (nothing written).
 */
export async function decideEntry(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log'>,
  organizationId: string,
  id: EntryId,
  decision: StandingDecision,
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
  options: DecisionOptions = {},
): Promise<BookEntry> {
  return actOnEntry(ports, organizationId, { id, act: { kind: 'DECISION', decision }, ...options }, cause);
}

/**
 * A person's decision taken back: the engine's answer stands again (an entry standing by a later
 * decision is left as it is), with its change in the feed, in one transaction with `writes`. The
 * same refusals as decideEntry's, but a DELETED entry's decision may be withdrawn.
 */
export async function withdrawDecision(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log'>,
  organizationId: string,
  id: EntryId,
  withdrawal: Withdrawal,
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
  options: DecisionOptions = {},
): Promise<BookEntry> {
  return actOnEntry(ports, organizationId, { id, act: { kind: 'WITHDRAWAL', withdrawal }, ...options }, cause);
}

async function actOnEntry(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log'>,
  organizationId: string,
  decision: EntryDecision,
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
): Promise<BookEntry> {
  // One outcome per decision given.
  const outcome = (await decideEntries(ports, organizationId, [decision], cause))[0]!;
  switch (outcome.kind) {
    case 'DECIDED':
      return outcome.entry;
    case 'REFUSED':
      throw outcome.error;
    case 'WRITES_REFUSED':
      throw conflict(
        `The entry ${decision.id.partnerHotelId} of source ${decision.id.source} changed while it was being decided; nothing was written. Read it again.`,
      );
  }
}

/**
 * Decisions on several entries (at most DECISIONS_PER_COMMIT, distinct), each checked as a single
 * one is, committed together in one transaction: the feed's one commit, each entry's own writes, and
 * `shared(decided)`, the writes of those going through (their indexes). A decision refused or lost
 * is left out and the rest tried again. Answers each decision's outcome, in the order given.
 */
export async function decideEntries(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log'>,
  organizationId: string,
  decisions: readonly EntryDecision[],
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
  shared: (decided: readonly number[]) => readonly TransactItem[] = () => [],
): Promise<EntryDecisionOutcome[]> {
  if (decisions.length > DECISIONS_PER_COMMIT)
    throw new Error(`At most ${DECISIONS_PER_COMMIT} decisions commit at once, not ${decisions.length}.`);
  const outcomes: (EntryDecisionOutcome | undefined)[] = decisions.map(() => undefined);
  const everySettled = (all: (EntryDecisionOutcome | undefined)[]): all is EntryDecisionOutcome[] =>
    all.every((outcome) => outcome !== undefined);
  // Decided on the entries as they stand right after the feed's last commit: a commit in between decides again on what it left.
  return ports.log.onTop(organizationId, async (): Promise<FeedStep<EntryDecisionOutcome[]>> => {
    if (everySettled(outcomes)) return { kind: 'DONE', result: outcomes };
    const pending = decisions.flatMap((_, i) => (outcomes[i] === undefined ? [i] : []));
    const held = await currentEntries(
      ports,
      organizationId,
      pending.map((i) => decisions[i]!.id),
    );
    const state = await ports.store.state(organizationId);
    const planned: (Outcome & { index: number })[] = [];
    pending.forEach((index, at) => {
      try {
        planned.push({ index, ...planDecision(decisions[index]!, held[at], state, cause) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes[index] = { kind: 'REFUSED', error };
      }
    });
    if (everySettled(outcomes)) return { kind: 'DONE', result: outcomes };
    // Each write's owner: the decision it belongs to and its place among that decision's own writes, or none (the book's, the shared ones).
    const owners: ({ decision: number; write: number } | undefined)[] = [];
    const writes = (next: number): TransactItem[] => {
      owners.length = 0;
      const items: TransactItem[] = [];
      for (const { index, entry, change } of planned) {
        // A withdrawal of a decision the book no longer stands by changes only the job's record.
        if (change) {
          items.push(ports.store.layOverItem(organizationId, entry, next));
          owners.push(undefined);
        }
        for (const [write, item] of (decisions[index]!.writes ?? []).entries()) {
          items.push(item);
          owners.push({ decision: index, write });
        }
      }
      const common = shared(planned.map(({ index }) => index));
      items.push(...common);
      owners.push(...common.map(() => undefined));
      return items;
    };
    const changes = planned.flatMap(({ entry, change }) => (change ? [changeOf(change, entry)] : []));
    return {
      kind: 'COMMIT',
      ...(changes.length > 0 && { commit: { cause, changes } }),
      writes,
      // A decision whose own writes were refused is left out, and the rest tried again.
      settle: (attempted): Settled<EntryDecisionOutcome[]> => {
        if (attempted.kind === 'COMMITTED') {
          for (const { index, entry } of planned) outcomes[index] = { kind: 'DECIDED', entry };
          return everySettled(outcomes) ? { kind: 'DONE', result: outcomes } : { kind: 'AGAIN' };
        }
        for (const write of attempted.writes) {
          const owner = owners[write];
          if (!owner) throw new Error('A write of the book or a shared one has no condition of its own to fail.');
          const earlier = outcomes[owner.decision];
          outcomes[owner.decision] = {
            kind: 'WRITES_REFUSED',
            writes: [...(earlier?.kind === 'WRITES_REFUSED' ? earlier.writes : []), owner.write],
          };
        }
        return { kind: 'AGAIN' };
      },
    };
  });
}

/** An entry's decision applied to the entry as it stands (`held`); throws the refusal (a DomainError) the book's rules give it. */
function planDecision(
  { id, act, row, expectedDecidedAt }: EntryDecision,
  held: BookEntry | undefined,
  state: Awaited<ReturnType<BookPorts['store']['state']>>,
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
): Outcome {
  if (!held && row && unlistedSince(state, id.source, row.listedAt)) {
    throw conflict(
      `The entry ${id.partnerHotelId} of source ${id.source} is not in the book: a newer inventory of its source no longer lists it. It comes back when an inventory lists it again.`,
    );
  }
  const decidedAt = act.kind === 'DECISION' ? act.decision.decidedAt : act.withdrawal.decidedAt;
  const current = held ?? (row && applyJobRow(undefined, row.row, decidedAt, row.mappingJobId, row.listedAt).entry);
  if (!current) throw notFound(`The book has no entry ${id.partnerHotelId} of source ${id.source}.`);
  // A hotel the partner's inventory no longer lists has nothing to decide: it comes back (under its decision, if any) when an inventory lists it again.
  if (current.status === 'DELETED' && act.kind === 'DECISION') {
    throw conflict(
      `The entry ${id.partnerHotelId} of source ${id.source} was removed at ${current.changedAt}: ${current.reason.toLowerCase()}. It comes back when an inventory lists it again.`,
    );
  }
  if (expectedDecidedAt !== undefined && (current.decision?.decidedAt ?? null) !== expectedDecidedAt) {
    const now = current.decision ? `was decided ${current.decision.decision} at ${current.decision.decidedAt}` : 'has no decision any more';
    throw conflict(
      `The entry ${id.partnerHotelId} of source ${id.source} changed since you read it: it ${now}. Read it again and decide again if needed.`,
    );
  }
  return act.kind === 'WITHDRAWAL'
    ? applyWithdrawal(current, act.withdrawal, cause)
    : applyDecision(current, act.decision, cause, held === undefined);
}

/** Entries looked at per page at most before a page is answered short (with a cursor to go on). */
const SCANNED_PER_PAGE = 20_000;
const LIST_BATCH = 500;

/** The index key a filter is read through (the most selective it names), or none: the generation is read in order. */
function indexKeyOf(filter: EntryFilter): string | undefined {
  if (filter.status !== undefined) return listingKey.status(filter.status);
  if (filter.method !== undefined) return listingKey.method(filter.method);
  if (filter.source !== undefined) return listingKey.source(filter.source);
  return undefined;
}

/**
 * The generation's entries after `after`: through the index when the filter names a status, method
 * or source, else in order; and the key up to which they cover the generation (null: to its end).
 */
async function generationBatch(
  snapshot: Snapshot | undefined,
  indexKey: string | undefined,
  after: string | null,
  wanted: number,
): Promise<{ batch: SnapshotEntry[]; last: string | null }> {
  if (!snapshot) return { batch: [], last: null };
  if (indexKey === undefined) {
    const batch = await snapshot.entriesAfter(after, LIST_BATCH);
    return { batch, last: batch.length === LIST_BATCH ? entryKey(batch[batch.length - 1]!) : null };
  }
  // As many as the page still wants (the rest of the filter may drop some: the next batch takes over).
  const { keys, more } = await snapshot.entryKeysUnder(indexKey, after, Math.min(LIST_BATCH, wanted));
  return { batch: await snapshot.entriesAt(keys), last: more ? keys[keys.length - 1]! : null };
}

/**
 * Entries in key order (partner id, then source) after the cursor's key, those the filter keeps
 * (DELETED ones only when asked for), at most `limit`; the cursor to go on, or null at the end.
 * A filter by status, method or source reads the generation's index (Queries of its blocks), the
 * rest of the filter is applied to what it finds; entries decided since are laid over it.
 */
export async function listEntries(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  filter: EntryFilter,
  limit: number,
  afterKey: string | null,
): Promise<{ entries: BookEntry[]; nextKey: string | null }> {
  const indexKey = indexKeyOf(filter);
  let generation = (await ports.store.state(organizationId)).generation;
  let snapshot = await Snapshot.open(ports, organizationId, generation);
  const entries: BookEntry[] = [];
  let after = afterKey;
  for (let scanned = 0; ;) {
    const { batch, last } = await generationBatch(snapshot, indexKey, after, limit - entries.length);
    const laid = await ports.store.laidOverIn(organizationId, { lower: after, upper: last === null ? null : `${last}\u0000` });
    // A generation committed meanwhile may have folded (and removed) items this batch needed: read it from the new one.
    const now = (await ports.store.state(organizationId)).generation;
    if (now !== generation) {
      generation = now;
      snapshot = await Snapshot.open(ports, organizationId, generation);
      continue;
    }
    const merged = new Map<string, BookEntry>(batch.map((entry) => [entryKey(entry), withoutFolded(entry)]));
    const foldedOf = new Map(batch.map((entry) => [entryKey(entry), entry.folded]));
    for (const item of laid) {
      const key = entryKey(item.entry);
      if (after !== null && compareKeys(key, after) <= 0) continue;
      // Through the index, the generation's entry of a laid-over one may be outside the batch (another status): its fold decides.
      const folded = foldedOf.get(key) ?? (indexKey === undefined ? 0 : ((await snapshot?.entryAt(key))?.folded ?? 0));
      // Folded already (and not yet removed): the generation's entry stands.
      if (item.sequence > folded) merged.set(key, item.entry);
    }
    const keys = [...merged.keys()].sort(compareKeys);
    for (const [index, key] of keys.entries()) {
      after = key;
      scanned++;
      const entry = merged.get(key)!;
      if (!filterMatches(entry, filter)) continue;
      entries.push(entry);
      if (entries.length >= limit) return { entries, nextKey: last === null && index === keys.length - 1 ? null : key };
    }
    if (last === null) return { entries, nextKey: null };
    after = last;
    if (scanned >= SCANNED_PER_PAGE) return { entries, nextKey: after };
  }
}

/**
 * The entries a search and the filter ask for, after `start` in its order (key order, or by score),
 * at most `limit`, with the place to go on from (null at the end) and how many there are in all:
 * the generation's search columns scanned (entry-search.ts), the entries changed since laid over them.
 */
export async function searchEntries(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  search: AnswerSearch,
  filter: EntryFilter,
  limit: number,
  start: PageStart,
): Promise<{ entries: BookEntry[]; next: ScoredKey | null; total: number }> {
  for (;;) {
    const { generation } = await ports.store.state(organizationId);
    const snapshot = await Snapshot.open(ports, organizationId, generation);
    const [columns, laidOver] = await Promise.all([snapshot?.searchColumns(), ports.store.laidOverAll(organizationId)]);
    // A generation committed meanwhile may have folded (and removed) items the search read: search it instead.
    if ((await ports.store.state(organizationId)).generation !== generation) continue;
    const { found, total } = searchGeneration(columns?.columns ?? [], columns?.hidden ?? [], laidOver, search, filter, start, limit + 1);
    const page = found.slice(0, limit);
    const inGeneration = page.flatMap((item) => ('row' in item ? [item.key] : []));
    const read = new Map(((await snapshot?.entriesAt(inGeneration)) ?? []).map((entry) => [entryKey(entry), withoutFolded(entry)]));
    return {
      entries: page.map((item) => ('entry' in item ? item.entry : read.get(item.key)!)),
      next: found.length > limit ? { score: page[page.length - 1]!.score, key: page[page.length - 1]!.key } : null,
      total,
    };
  }
}

/**
 * The book's entries per source, status and method: the generation's counts, with each entry decided
 * since taken out as the generation holds it and counted as it now is.
 */
export async function bookStatistics(ports: Pick<BookPorts, 'store' | 'files' | 'kept'>, organizationId: string): Promise<BookStatistics> {
  // The laid-over items first, as currentEntry reads them.
  const laidOver = await ports.store.laidOverAll(organizationId);
  const state = await ports.store.state(organizationId);
  const snapshot = await Snapshot.open(ports, organizationId, state.generation);
  const statistics = structuredClone(snapshot?.statistics ?? {});
  for (const laid of laidOver) {
    const key = entryKey(laid.entry);
    const written = await snapshot?.entryAt(key);
    if (written && laid.sequence <= written.folded) continue;
    if (written) countEntries(statistics, [written], -1);
    countEntries(statistics, [laid.entry]);
  }
  return statistics;
}
