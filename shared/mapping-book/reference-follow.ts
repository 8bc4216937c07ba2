/**
 * The book follows the reference. Each publication says what it changed (hotels merged as
 * duplicates, hotels gone, hotels new); every organization's book then takes those changes, on the
 * queues and charging nothing:
 *
 * - an entry whose hotel was merged moves to the hotel that survives;
 * - an entry whose hotel is gone is mapped again against the new publication (a person's decision
 *   for it goes back to REVIEW, shown);
 * - an entry whose hotel was renamed, placed elsewhere or given other supplier codes shows it;
 * - an engine's entry whose hotel moved is mapped again (a person's decision for it stands);
 * - an entry the engine left UNMATCHED is tried again when a hotel is new near it.
 *
 * The entries are found through each generation's reference index (snapshot.ts) and the laid-over
 * items, so the work follows what changed, not the size of the book or of the reference. Changes are
 * laid over the generation and committed to the feed like decisions, a few dozen per commit, each
 * computed on the entries as they stand right after the commit before it.
 */
import type { PartnerFacts } from './entries';
import type { Queue } from '../platform/queue/queue';
import type { PartnerEvent } from '../events';
import type { ReferenceChanges } from '../reference';
import { blocksOf } from '../platform/objects/block-files';
import { currentEntries } from './book';
import {
  changeOf,
  countChanges,
  doneWithSequence,
  formatPosition,
  sumCounts,
  type BookChange,
  type ChangeCounts,
  type FeedStep,
} from './change-log';
import {
  applyMerge,
  applyRemap,
  applyHotelChange,
  isRetriable,
  type BookEntry,
  type ChangeCause,
  type EngineAnswer,
  type HotelMerge,
  type HotelChange,
  type Outcome,
} from './entries';
import type { BookPorts, FollowMessage } from './ports';
import type { Publication } from './store';
import { Snapshot } from './snapshot';
import { compareKeys, entryIdOf, entryKey, hotelKeys, placeKeysNear, referenceKeys } from './keys';

/** Entries one delivery takes on; the rest go on in the next message. */
export const FOLLOW_BATCH = 1_000;
/** Entries per commit: with the head and the commit, within a transaction's 100 items. */
const COMMIT_ENTRIES = 90;
/** While a job is being written into the book, a follow waits this long and tries again. */
export const FOLLOW_WAIT_SECONDS = 30;
/** How many publications back a book catches up through; older changes are gone from reach. */
const CHAIN_LIMIT = 50;

export interface FollowPorts extends BookPorts {
  /** What a publication changed; undefined for one made before publications recorded it. */
  referenceChanges(referenceVersionId: string): Promise<ReferenceChanges | undefined>;
  /** The engine's answers for partner hotels against a publication's matching index. */
  remap(matchingIndexKey: string, partners: readonly PartnerFacts[]): Promise<EngineAnswer[]>;
  follows: Pick<Queue<FollowMessage>, 'send' | 'sendAll'>;
}

/** Every book is told of a publication: one follow message per organization with a book. */
export async function announcePublication(ports: Pick<FollowPorts, 'store' | 'follows'>, referenceVersionId: string): Promise<void> {
  for (let after: string | null = null; ;) {
    const page = await ports.store.books(after, 1_000);
    await ports.follows.sendAll(page.organizationIds.map((organizationId) => ({ organizationId, referenceVersionId })));
    if (page.next === null) return;
    after = page.next;
  }
}

/** The publications' changes since the one the book followed, folded into one: what the book takes. */
interface Followed {
  publication: ReferenceChanges;
  /** Where each merged hotel went, chains of merges followed to the end. */
  merged: Map<string, HotelMerge>;
  removed: Set<string>;
  /** Each hotel named, placed or coded otherwise, as the latest publication has it. */
  changedHotels: Map<string, HotelChange>;
  /** Hotels whose pin moved. */
  moved: Set<string>;
  /** Place keys near hotels new since. */
  near: Set<string>;
}

async function followedChanges(
  ports: Pick<FollowPorts, 'referenceChanges'>,
  target: ReferenceChanges,
  since: string | undefined,
): Promise<Followed> {
  const chain: ReferenceChanges[] = [target];
  // A book that followed nothing yet was written against the publication just before.
  while (since !== undefined && chain.length < CHAIN_LIMIT) {
    const previous = chain[0]!.previousArtifactsId;
    if (previous === null || previous === since) break;
    const changes = await ports.referenceChanges(previous);
    if (!changes) break;
    chain.unshift(changes);
  }
  const merged = new Map<string, HotelMerge>();
  const removed = new Set<string>();
  const changedHotels = new Map<string, HotelChange>();
  const moved = new Set<string>();
  const near = new Set<string>();
  for (const publication of chain) {
    for (const merge of publication.merged) merged.set(merge.hotelId, merge);
    for (const id of publication.removed) removed.add(id);
    for (const hotel of publication.changed ?? []) {
      changedHotels.set(hotel.id, { hotelId: hotel.id, name: hotel.name, ...(hotel.facts && { facts: hotel.facts }) });
      if (hotel.moved) moved.add(hotel.id);
    }
    for (const hotel of publication.added)
      if (hotel.lat !== undefined && hotel.lon !== undefined) for (const key of placeKeysNear(hotel.lat, hotel.lon)) near.add(key);
  }
  // A hotel merged into one merged too (in whatever order the merges are listed) moves to the last.
  for (const [id, merge] of merged) {
    let last = merge;
    for (const seen = new Set([id]); merged.has(last.mergedInto) && !seen.has(last.mergedInto);) {
      seen.add(last.mergedInto);
      last = merged.get(last.mergedInto)!;
    }
    merged.set(id, { ...last, hotelId: id });
  }
  return { publication: target, merged, removed, changedHotels, moved, near };
}

/** The keys of the entries the changes may touch: the generation's, through its reference index, and the laid-over ones. */
async function touchedEntries(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  followed: Followed,
): Promise<string[]> {
  const wanted = [...hotelKeys([...followed.merged.keys(), ...followed.removed, ...followed.changedHotels.keys()]), ...followed.near];
  const wantedSet = new Set(wanted);
  // The laid-over items first, as every read of the book takes them.
  const laidOver = await ports.store.laidOverAll(organizationId);
  const snapshot = await Snapshot.open(ports, organizationId, (await ports.store.state(organizationId)).generation);
  const keys = (await snapshot?.entryKeysFor(wanted)) ?? new Set<string>();
  for (const laid of laidOver) if (referenceKeys(laid.entry).some((key) => wantedSet.has(key))) keys.add(entryKey(laid.entry));
  return [...keys].sort(compareKeys);
}

/** What the changes do to an entry, and whether the engine must answer for it first (`remap`). */
interface Plan {
  merge?: HotelMerge;
  hotelChanges: HotelChange[];
  remap?: { kind: 'GONE'; hotelId: string } | { kind: 'MOVED'; hotelId: string } | { kind: 'NEAR_NEW' };
}

function planFor(entry: BookEntry, followed: Followed): Plan {
  // An ended entry waits for its inventory to list it again; one this publication changed already (a delivery repeated) is done.
  const changedByThis =
    (entry.cause.kind === 'MERGE' || entry.cause.kind === 'PUBLICATION') &&
    entry.cause.referenceVersionId === followed.publication.artifactsId;
  if (entry.status === 'DELETED' || changedByThis) return { hotelChanges: [] };
  const merge =
    (entry.referenceHotelId !== null && followed.merged.get(entry.referenceHotelId)) ||
    (entry.decision?.referenceHotelId && followed.merged.get(entry.decision.referenceHotelId)) ||
    undefined;
  const pointsAt = [entry.referenceHotelId, entry.decision?.referenceHotelId]
    .map((id) => (id && followed.merged.get(id)?.mergedInto) ?? id)
    .filter((id): id is string => typeof id === 'string');
  const hotelChanges = [...new Set(pointsAt)].flatMap((hotelId) => followed.changedHotels.get(hotelId) ?? []);
  const gone = pointsAt.find((id) => followed.removed.has(id));
  if (gone !== undefined) return { ...(merge && { merge }), hotelChanges, remap: { kind: 'GONE', hotelId: gone } };
  // A person's decision names the hotel, wherever its pin is: only the engine's answer is asked again.
  const engineHotel =
    entry.method !== 'MANUAL' && entry.referenceHotelId !== null
      ? (followed.merged.get(entry.referenceHotelId)?.mergedInto ?? entry.referenceHotelId)
      : undefined;
  if (engineHotel !== undefined && followed.moved.has(engineHotel))
    return { ...(merge && { merge }), hotelChanges, remap: { kind: 'MOVED', hotelId: engineHotel } };
  const nearNew = isRetriable(entry) && referenceKeys(entry).some((key) => followed.near.has(key));
  return { ...(merge && { merge }), hotelChanges, ...(nearNew && { remap: { kind: 'NEAR_NEW' } }) };
}

function outcomeFor(entry: BookEntry, plan: Plan, answer: EngineAnswer | undefined, at: string, version: string): Outcome {
  const steps: ((held: BookEntry) => Outcome)[] = [
    ...(plan.merge ? [(held: BookEntry) => applyMerge(held, plan.merge!, at, version)] : []),
    ...plan.hotelChanges.map((change) => (held: BookEntry) => applyHotelChange(held, change, at, version)),
    ...(answer && plan.remap ? [(held: BookEntry) => applyRemap(held, answer, at, version, plan.remap!)] : []),
  ];
  // The first change names the kind (an entry changed at all is UPDATED); the last step's entry is the result.
  return steps.reduce<Outcome>(
    (outcome, step) => {
      const next = step(outcome.entry);
      const change = outcome.change ?? next.change;
      return { entry: next.entry, ...(change && { change }) };
    },
    { entry },
  );
}

/** A follow's cause: a merge when the publications only merged, else a publication. */
function followCause(followed: Followed): Extract<ChangeCause, { kind: 'MERGE' | 'PUBLICATION' }> {
  const onlyMerged = followed.removed.size === 0 && followed.near.size === 0 && followed.changedHotels.size === 0;
  return { kind: onlyMerged ? 'MERGE' : 'PUBLICATION', referenceVersionId: followed.publication.artifactsId };
}

/**
 * Takes a publication's changes into one organization's book, FOLLOW_BATCH entries per delivery.
 * Done, the book records the publication it followed, and MAPPING_BOOK_CHANGED tells the partner
 * where the changes start. A delivery repeated finds the entries it changed already changed.
 */
export async function followReference(ports: FollowPorts, message: FollowMessage): Promise<void> {
  const { organizationId, referenceVersionId, since } = message;
  const [state, target] = await Promise.all([ports.store.state(organizationId), ports.referenceChanges(referenceVersionId)]);
  if (!target) return;
  // A later publication followed first covers this one (a catch-up, only a later one).
  const passed = (followed: Publication | undefined) =>
    followed !== undefined && (since === undefined ? followed.number >= target.number : followed.number > target.number);
  if (passed(state.followed)) return;
  // A job being written into the book would leave out its rows for the entries this changes: its write goes first.
  if (state.writing !== undefined) {
    await ports.follows.send(message, { delaySeconds: FOLLOW_WAIT_SECONDS });
    return;
  }
  const followed = await followedChanges(ports, target, since ?? state.followed?.referenceVersionId);
  const touched = await touchedEntries(ports, organizationId, followed);
  const todo = message.after === undefined ? touched : touched.filter((key) => compareKeys(key, message.after!) > 0);
  const batch = todo.slice(0, FOLLOW_BATCH);
  let { from, counts = { new: 0, updated: 0, deleted: 0 } } = message;
  const answers = new Map<string, EngineAnswer>();
  for (const keys of blocksOf(batch, COMMIT_ENTRIES)) {
    // A later publication's follow that finished meanwhile took the book past this one.
    if (passed((await ports.store.state(organizationId)).followed)) return;
    const committed = await commitChanges(ports, organizationId, keys, followed, answers);
    if (committed) {
      from ??= committed.sequence;
      counts = sumCounts([counts, committed.counts]);
    }
  }
  if (todo.length > batch.length) {
    await ports.follows.send({
      organizationId,
      referenceVersionId,
      ...(since !== undefined && { since }),
      after: batch[batch.length - 1]!,
      ...(from !== undefined && { from }),
      counts,
    });
    return;
  }
  const cause = followCause(followed);
  // One event per publication and book, and one per catch-up of a job's rows.
  const eventId = `${organizationId}-book-reference-${referenceVersionId}${since === undefined ? '' : `-since-${since}`}`;
  const event =
    from === undefined
      ? undefined
      : followEvent({
          id: eventId,
          organizationId,
          firstSequence: from,
          cause,
          counts,
          publishedAt: target.publishedAt,
          committedAt: ports.clock.now().toISOString(),
        });
  await ports.store.finishFollow(organizationId, since === undefined ? { referenceVersionId, number: target.number } : undefined, event);
}

/**
 * Commits the changes to the entries of `keys`, computed on the entries as they stand right after the
 * feed's last commit (computed again when another commit comes first). Undefined when nothing changed.
 */
async function commitChanges(
  ports: FollowPorts,
  organizationId: string,
  keys: readonly string[],
  followed: Followed,
  answers: Map<string, EngineAnswer>,
): Promise<{ sequence: number; counts: ChangeCounts } | undefined> {
  const version = followed.publication.artifactsId;
  return ports.log.onTop(organizationId, async (): Promise<FeedStep<{ sequence: number; counts: ChangeCounts } | undefined>> => {
    const entries = (await currentEntries(ports, organizationId, keys.map(entryIdOf))).filter(
      (entry): entry is BookEntry => entry !== undefined,
    );
    const plans = entries.map((entry) => planFor(entry, followed));
    const unanswered = entries.filter((entry, i) => plans[i]!.remap !== undefined && !answers.has(entryKey(entry)));
    if (unanswered.length > 0) {
      const fresh = await ports.remap(
        followed.publication.matchingIndexKey,
        unanswered.map((entry) => entry.partner),
      );
      unanswered.forEach((entry, i) => answers.set(entryKey(entry), fresh[i]!));
    }
    const at = ports.clock.now().toISOString();
    const changed = entries
      .map((entry, i) => outcomeFor(entry, plans[i]!, answers.get(entryKey(entry)), at, version))
      .filter((outcome): outcome is Required<Outcome> => outcome.change !== undefined);
    if (changed.length === 0) return { kind: 'DONE', result: undefined };
    const changes: BookChange[] = changed.map((outcome) => changeOf(outcome.change, outcome.entry));
    return {
      kind: 'COMMIT',
      commit: { cause: followCause(followed), changes },
      writes: (next) => changed.map((outcome) => ports.store.layOverItem(organizationId, outcome.entry, next)),
      settle: (attempted) => {
        const { result: sequence } = doneWithSequence(attempted);
        return { kind: 'DONE', result: { sequence, counts: countChanges(changes) } };
      },
    };
  });
}

/**
 * MAPPING_BOOK_CHANGED for a publication followed (or a catch-up): its id says which;
 * `firstSequence`, the follow's first commit, where a reader of the feed starts.
 */
function followEvent(follow: {
  id: string;
  organizationId: string;
  firstSequence: number;
  cause: ReturnType<typeof followCause>;
  counts: ChangeCounts;
  publishedAt: string;
  committedAt: string;
}): PartnerEvent {
  const { id, organizationId, firstSequence, cause, counts, publishedAt, committedAt } = follow;
  return {
    id,
    type: 'MAPPING_BOOK_CHANGED',
    organizationId,
    // The publication's time: a delivery repeated records the same item, not a second event.
    occurredAt: publishedAt,
    data: { cause, counts, position: formatPosition({ sequence: firstSequence, read: 0 }), committedAt },
  };
}
