/**
 * The mapping book's rules: what an entry is, and what a job's row, a person's decision or the end
 * of an inventory does to it. Pure: the store and the workers decide where entries live.
 *
 * An entry is one partner hotel of one source (the organization's own hotels, or one supplier's
 * codes) and the reference hotel it maps to. A job's row against the entry is NEW, UPDATED (another
 * hotel or status) or unchanged. A person's decision (MANUAL) is the authority: a job keeps it and
 * records what the engine said beside it, unless the partner's hotel changed materially since the
 * decision; then the entry goes back to REVIEW, showing the decision it had.
 */
import {
  distanceMeters,
  referenceFactsIn,
  sameReferenceFacts,
  withReferenceFacts,
  type CandidateSummary,
  type MappingResult,
  type MatchEvidence,
  type ReferenceHotelFacts,
} from '../mapping';

/** The source of the rows an inventory gives without a supplier code: the organization's own hotels. */
export const OWN_SOURCE = 'OWN';

export const ENTRY_STATUSES = ['MATCHED', 'REVIEW', 'UNMATCHED', 'DELETED'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export const ENTRY_METHODS = ['ID', 'FUZZY', 'MANUAL'] as const;
export type EntryMethod = (typeof ENTRY_METHODS)[number];
export const CHANGE_KINDS = ['NEW', 'UPDATED', 'DELETED'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Farther than this from where the partner had the hotel, a pin has moved: a hotel is not 150 m wide. */
export const MATERIAL_MOVE_METERS = 150;

/** What the partner says of its hotel: what a decision was made on, and what a material change is measured against. */
export interface PartnerFacts {
  name: string;
  address?: string;
  postalCode?: string;
  city?: string;
  country?: string;
  latitude?: number;
  longitude?: number;
}

/**
 * What an answer says of a partner's hotel: the reference hotel it points at (with that hotel's
 * facts), how sure it is, on what evidence, among which candidates. The engine's answer holds one, and
 * so does an entry (the engine's, or a person's decision) and a lookup's answer from the book.
 */
export interface Answer<Status = EntryStatus, Method = EntryMethod | null> extends ReferenceHotelFacts {
  status: Status;
  method: Method;
  referenceHotelId: string | null;
  referenceHotelName: string | null;
  score: number;
  evidence: MatchEvidence | null;
  candidates: CandidateSummary[];
}

/** The answer `held` holds, its fields alone, in one order. */
export function answerIn<Status, Method>(held: Answer<Status, Method>): Answer<Status, Method> {
  return {
    status: held.status,
    method: held.method,
    referenceHotelId: held.referenceHotelId,
    referenceHotelName: held.referenceHotelName,
    ...referenceFactsIn(held),
    score: held.score,
    evidence: held.evidence,
    candidates: held.candidates,
  };
}

/** What the engine answered for the partner hotel (the facts: of referenceHotelId, from the publication it mapped against). */
export interface EngineAnswer extends Answer<MappingResult['status'], MappingResult['method']> {
  reason?: string;
  /**
   * What the answer was computed from (the partner's row, the mode, the engine's version, the
   * publication), as a digest: a job answers a row of the same basis from the book. Not shown.
   */
  basis?: string;
  /** The engine's own status, score and reason where the cross-row rule changed them (another row claimed the hotel). Not shown. */
  unclaimed?: ClaimedAway;
}

/** What a row's answer was before the cross-row rule gave its hotel to another row. */
export interface ClaimedAway {
  status: MappingResult['status'];
  score: number;
  reason?: string;
}

/** A person's decision, with the partner's hotel as it was when they made it (the facts: of referenceHotelId). */
export interface StandingDecision extends ReferenceHotelFacts {
  decision: 'MATCH' | 'NO_MATCH';
  referenceHotelId: string | null;
  referenceHotelName: string | null;
  note?: string;
  /** The API key that decided. */
  decidedBy: string;
  decidedAt: string;
  partner: PartnerFacts;
}

/** Who or what changed an entry. */
export type ChangeCause =
  | { kind: 'JOB'; mappingJobId: string }
  /** Find-match answers recorded into the book: the API key that asked. */
  | { kind: 'MATCH'; requestedBy: string }
  | { kind: 'REVIEW'; decidedBy: string; mappingJobId?: string }
  /** A merge of reference duplicates (an entry's change names the hotels; a commit only the publication). */
  | { kind: 'MERGE'; referenceVersionId: string; mergedHotelId?: string; mergedInto?: string }
  | { kind: 'PUBLICATION'; referenceVersionId: string };

/** One line of an entry's history: what it became, when, why and by what. */
export interface HistoryLine {
  at: string;
  change: ChangeKind;
  status: EntryStatus;
  method: EntryMethod | null;
  referenceHotelId: string | null;
  reason: string;
  cause: ChangeCause;
}

/** How many lines of history an entry keeps: its latest, which are the ones read. */
export const HISTORY_LINES = 20;

/** Its answer: the engine's, or the person's decision; the facts: of referenceHotelId, kept current as the reference changes. */
export interface BookEntry extends Answer {
  source: string;
  partnerHotelId: string;
  partner: PartnerFacts;
  /** What the engine said last: beside a MANUAL entry, its own answer. */
  engine: EngineAnswer;
  /** The person's decision: standing when the method is MANUAL, shown for review when the entry went back to REVIEW. */
  decision?: StandingDecision;
  /** Why the entry is as it is (its last change). */
  reason: string;
  changedAt: string;
  cause: ChangeCause;
  history: HistoryLine[];
  /**
   * When the partner last said what its hotel is (listed it, or ended it): the upload of the
   * inventory a job mapped, or the find-match request recorded. An older statement written later
   * changes nothing: jobs reach the book in the order of their inventories, not of their ends.
   */
  listedAt?: string;
}

/** What every view of an entry shows, the feed's changes included. */
export type EntrySummary = Pick<
  BookEntry,
  | 'source'
  | 'partnerHotelId'
  | 'partner'
  | 'status'
  | 'method'
  | 'referenceHotelId'
  | 'referenceHotelName'
  | keyof ReferenceHotelFacts
  | 'score'
  | 'reason'
  | 'changedAt'
  | 'cause'
>;

export function entrySummary(entry: BookEntry): EntrySummary {
  return {
    source: entry.source,
    partnerHotelId: entry.partnerHotelId,
    partner: entry.partner,
    status: entry.status,
    method: entry.method,
    referenceHotelId: entry.referenceHotelId,
    referenceHotelName: entry.referenceHotelName,
    ...referenceFactsIn(entry),
    score: entry.score,
    reason: entry.reason,
    changedAt: entry.changedAt,
    cause: entry.cause,
  };
}

/** A job's row as the book takes it: the engine's answer, the partner's facts and the row's source. */
export interface JobRow extends EngineAnswer {
  partnerHotelId: string;
  source: string;
  partner: PartnerFacts;
}

/** What a rule did to an entry: the entry as it now is, and the change the feed tells of (none when unchanged). */
export interface Outcome {
  entry: BookEntry;
  change?: ChangeKind;
}

const folded = (text: string | undefined) =>
  (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const hasPin = (facts: PartnerFacts) => facts.latitude !== undefined && facts.longitude !== undefined;

/**
 * How the partner's hotel changed in a way that may make a decision wrong: its name or its address
 * (street, postal code, city, country) other than by case, accents, punctuation or spacing, or its
 * pin moved more than MATERIAL_MOVE_METERS, appeared or went. Undefined when nothing material changed.
 */
export function materialChange(before: PartnerFacts, after: PartnerFacts): string | undefined {
  const changed: string[] = [];
  const quote = (text: string | undefined) => (text ? `"${text}"` : 'none');
  if (folded(before.name) !== folded(after.name)) changed.push(`name ${quote(before.name)} -> ${quote(after.name)}`);
  for (const field of ['address', 'postalCode', 'city', 'country'] as const) {
    if (folded(before[field]) !== folded(after[field])) changed.push(`${field} ${quote(before[field])} -> ${quote(after[field])}`);
  }
  if (hasPin(before) !== hasPin(after)) changed.push(hasPin(after) ? 'coordinates added' : 'coordinates removed');
  else if (hasPin(before) && hasPin(after)) {
    const moved = distanceMeters(before.latitude!, before.longitude!, after.latitude!, after.longitude!);
    if (moved > MATERIAL_MOVE_METERS) changed.push(`moved ${Math.round(moved)} m`);
  }
  return changed.length === 0 ? undefined : changed.join('; ');
}

const describe = (answer: { status: EntryStatus; referenceHotelId: string | null }) =>
  answer.referenceHotelId === null ? answer.status : `${answer.status} ${answer.referenceHotelId}`;

/** The reference hotel an entry, its engine's answer or its decision points at. */
type PointedHotel = Pick<BookEntry, 'referenceHotelId' | 'referenceHotelName'> & ReferenceHotelFacts;

/** `held` pointing at `hotel`: its id, name and facts, none of the previous hotel's kept. */
function pointedAt<T extends PointedHotel>(held: T, hotel: PointedHotel): T {
  return { ...withReferenceFacts(held, hotel), referenceHotelId: hotel.referenceHotelId, referenceHotelName: hotel.referenceHotelName };
}

/** The engine's answer as an entry keeps it: its fields, in one order. */
export function engineAnswer(row: EngineAnswer): EngineAnswer {
  return {
    ...answerIn(row),
    ...(row.reason !== undefined && { reason: row.reason }),
    ...(row.basis !== undefined && { basis: row.basis }),
    ...(row.unclaimed !== undefined && { unclaimed: row.unclaimed }),
  };
}

/** The line of history that tells an entry's last change, of this kind. */
export function historyLineOf(
  entry: Pick<BookEntry, 'changedAt' | 'status' | 'method' | 'referenceHotelId' | 'reason' | 'cause'>,
  change: ChangeKind,
): HistoryLine {
  return {
    at: entry.changedAt,
    change,
    status: entry.status,
    method: entry.method,
    referenceHotelId: entry.referenceHotelId,
    reason: entry.reason,
    cause: entry.cause,
  };
}

function withHistory(entry: Omit<BookEntry, 'history'>, history: readonly HistoryLine[], change: ChangeKind): BookEntry {
  return { ...entry, history: [...history, historyLineOf(entry, change)].slice(-HISTORY_LINES) };
}

/** The entry as the engine's answer makes it. */
function engineEntry(row: JobRow, at: string, cause: ChangeCause, reason: string): Omit<BookEntry, 'history'> {
  const answer = engineAnswer(row);
  return {
    source: row.source,
    partnerHotelId: row.partnerHotelId,
    partner: row.partner,
    ...answerIn(answer),
    engine: answer,
    reason,
    changedAt: at,
    cause,
  };
}

/** What writes the engine's answers into the book: a job, or find-match answers recorded. */
export type EngineCause = Extract<ChangeCause, { kind: 'JOB' | 'MATCH' }>;

/** A job's row written into the book over the entry it finds there: see applyEngineRow. */
export function applyJobRow(current: BookEntry | undefined, row: JobRow, at: string, mappingJobId: string, listedAt: string): Outcome {
  return applyEngineRow(current, row, at, { kind: 'JOB', mappingJobId }, listedAt);
}

/** Whether the entry holds what the partner said later than `listedAt`: an older statement leaves it as it is. */
const listedLater = (current: BookEntry, listedAt: string) => current.listedAt !== undefined && current.listedAt > listedAt;

/**
 * The engine's answer for a partner's hotel, as the partner listed it at `listedAt`, written over the
 * entry it finds there (undefined when there is none). An entry the answer does not change keeps its
 * change time and reason, with the engine's latest answer and the partner's latest facts; an entry
 * listed later than this row is left as it is.
 */
export function applyEngineRow(current: BookEntry | undefined, row: JobRow, at: string, cause: EngineCause, listedAt: string): Outcome {
  if (current !== undefined && listedLater(current, listedAt)) return { entry: current };
  const outcome = engineRowOver(current, row, at, cause);
  return { ...outcome, entry: { ...outcome.entry, listedAt } };
}

function engineRowOver(current: BookEntry | undefined, row: JobRow, at: string, cause: EngineCause): Outcome {
  if (current === undefined)
    return { entry: withHistory(engineEntry(row, at, cause, row.reason ?? 'First mapped'), [], 'NEW'), change: 'NEW' };
  // An entry an earlier inventory ended comes back as NEW, under its decision if it had one.
  const returning = current.status === 'DELETED';
  const decision = current.method === 'MANUAL' ? current.decision : undefined;
  if (decision) {
    const moved = materialChange(decision.partner, row.partner);
    if (moved === undefined) {
      const kept: BookEntry = { ...current, partner: row.partner, engine: engineAnswer(row) };
      if (!returning) return { entry: kept };
      return {
        entry: withHistory(
          { ...restoreDecision(kept), reason: 'Listed again: the decision stands', changedAt: at, cause },
          current.history,
          'NEW',
        ),
        change: 'NEW',
      };
    }
    const reason =
      `The partner's hotel changed since the decision of ${decision.decidedAt.slice(0, 10)} (${moved}): review it again. ` +
      `The engine now says ${describe(row)}; the decision was ${decision.decision === 'MATCH' ? `MATCH ${decision.referenceHotelId}` : 'NO_MATCH'}.`;
    const review = { ...engineEntry(row, at, cause, reason), status: 'REVIEW' as const, decision };
    const change = returning ? 'NEW' : 'UPDATED';
    return { entry: withHistory(review, current.history, change), change };
  }
  if (returning) {
    // An entry that was waiting for a person's review still waits for it.
    const back = {
      ...engineEntry(row, at, cause, row.reason ?? 'Listed again'),
      ...(current.decision && { status: 'REVIEW' as const, decision: current.decision }),
    };
    return { entry: withHistory(back, current.history, 'NEW'), change: 'NEW' };
  }
  // An entry sent back to REVIEW holds there while the engine says what it said when it was sent back.
  const standing = current.decision ? current.engine : current;
  if (standing.status === row.status && standing.referenceHotelId === row.referenceHotelId) {
    // The same hotel: its place and codes as the row's publication has them.
    return {
      entry: {
        ...withReferenceFacts(current, row),
        partner: row.partner,
        engine: engineAnswer(row),
        score: row.score,
        evidence: row.evidence,
        candidates: row.candidates,
      },
    };
  }
  const reason = `The engine now says ${describe(row)} (was ${describe(current)})${row.reason ? `: ${row.reason}` : ''}`;
  // An entry sent back to REVIEW stays there, its decision shown, until a person decides again.
  const updated = {
    ...engineEntry(row, at, cause, reason),
    ...(current.decision && { status: 'REVIEW' as const, decision: current.decision }),
  };
  return { entry: withHistory(updated, current.history, 'UPDATED'), change: 'UPDATED' };
}

/** An entry under its standing decision. */
function restoreDecision(entry: BookEntry): BookEntry {
  const decision = entry.decision!;
  const match = decision.decision === 'MATCH';
  return {
    ...pointedAt(entry, decision),
    status: match ? 'MATCHED' : 'UNMATCHED',
    method: 'MANUAL',
    score: match ? 1 : 0,
  };
}

/** A person's decision on a live entry (decideEntry refuses one on a DELETED entry): MANUAL from now on, whatever it was. */
export function applyDecision(
  current: BookEntry,
  decision: StandingDecision,
  cause: Extract<ChangeCause, { kind: 'REVIEW' }>,
  firstInBook = false,
): Outcome {
  const decided = restoreDecision({ ...current, decision });
  const reason =
    decision.decision === 'MATCH' ? `Decided by a person: MATCH ${decision.referenceHotelId}` : 'Decided by a person: NO_MATCH';
  // An entry the book did not hold yet (decided on a job's row before the job's write) is new to the feed.
  const change = firstInBook ? 'NEW' : 'UPDATED';
  return { entry: withHistory({ ...decided, reason, changedAt: decision.decidedAt, cause }, current.history, change), change };
}

/** A person's decision taken back (undone): the engine's answer stands again. */
export interface Withdrawal {
  /** The decision taken back, as its decidedAt: a later decision on the entry is not taken back with it. */
  withdrawnDecidedAt: string;
  decidedBy: string;
  decidedAt: string;
}

/**
 * A decision withdrawn: the entry is the engine's answer again (a DELETED entry stays DELETED). An
 * entry whose standing decision is another (made later, or elsewhere) is left as it is.
 */
export function applyWithdrawal(current: BookEntry, withdrawal: Withdrawal, cause: Extract<ChangeCause, { kind: 'REVIEW' }>): Outcome {
  if (current.decision?.decidedAt !== withdrawal.withdrawnDecidedAt) return { entry: current };
  const { decision: _withdrawn, ...undecided } = current;
  const { engine } = current;
  const answered = {
    ...pointedAt(undecided, engine),
    ...answerIn(engine),
    status: current.status === 'DELETED' ? current.status : engine.status,
    reason: "Decision withdrawn: the engine's answer stands",
    changedAt: withdrawal.decidedAt,
    cause,
  };
  return { entry: withHistory(answered, current.history, 'UPDATED'), change: 'UPDATED' };
}

/**
 * The end of an entry whose partner id a whole inventory of its source, uploaded at `listedAt`, no
 * longer holds (unless a later one listed it). The entry stays as DELETED with its history and
 * decision: listed again, it returns under the decision.
 */
export function applyRemoval(current: BookEntry, at: string, mappingJobId: string, listedAt: string): Outcome {
  if (current.status === 'DELETED' || listedLater(current, listedAt)) return { entry: current };
  const ended = {
    ...current,
    status: 'DELETED' as const,
    reason: 'No longer in the inventory',
    changedAt: at,
    cause: { kind: 'JOB' as const, mappingJobId },
    listedAt,
  };
  return { entry: withHistory(ended, current.history, 'DELETED'), change: 'DELETED' };
}

// --- the reference's changes -------------------------------------------------------------------

/** An entry the engine left UNMATCHED, with a pin: a hotel new near it may be its match. A person's NO_MATCH stands. */
export const isRetriable = (entry: BookEntry) => entry.status === 'UNMATCHED' && entry.method !== 'MANUAL' && hasPin(entry.partner);

/** A reference hotel merged into another as its duplicate. */
export interface HotelMerge {
  hotelId: string;
  mergedInto: string;
  mergedIntoName: string | null;
  /** The facts of the hotel merged into; absent from changes recorded before they were kept. */
  mergedIntoFacts?: ReferenceHotelFacts;
}

/**
 * An entry whose hotel (or decision's hotel) was merged into another as its duplicate moves to the
 * hotel that survives, its status and method kept: the same hotel, under the id that stays.
 */
export function applyMerge(current: BookEntry, merge: HotelMerge, at: string, referenceVersionId: string): Outcome {
  const survivor: PointedHotel = { referenceHotelId: merge.mergedInto, referenceHotelName: merge.mergedIntoName, ...merge.mergedIntoFacts };
  const moved = <T extends PointedHotel>(held: T): T => (held.referenceHotelId === merge.hotelId ? pointedAt(held, survivor) : held);
  if (current.referenceHotelId !== merge.hotelId && current.decision?.referenceHotelId !== merge.hotelId) return { entry: current };
  const cause: ChangeCause = { kind: 'MERGE', mergedHotelId: merge.hotelId, mergedInto: merge.mergedInto, referenceVersionId };
  const entry = {
    ...moved(current),
    engine: moved(current.engine),
    ...(current.decision && { decision: moved(current.decision) }),
    reason: `The reference hotel ${merge.hotelId} was merged into ${merge.mergedInto}, its duplicate's original`,
    changedAt: at,
    cause,
  };
  return { entry: withHistory(entry, current.history, 'UPDATED'), change: 'UPDATED' };
}

/** A reference hotel the reference now names, places or codes otherwise. */
export interface HotelChange {
  hotelId: string;
  name: string;
  /** Its place and supplier codes now; absent from changes recorded before they were kept. */
  facts?: ReferenceHotelFacts;
}

/**
 * An entry that points at a hotel the reference changed (itself or its decision) shows the hotel's
 * new name, place and supplier codes, UPDATED; the engine's answer and the candidates take them
 * along. Another entry, or one already showing them, is left as it is.
 */
export function applyHotelChange(current: BookEntry, change: HotelChange, at: string, referenceVersionId: string): Outcome {
  const changed = <T extends PointedHotel>(held: T): T =>
    held.referenceHotelId === change.hotelId
      ? pointedAt(held, { referenceHotelId: change.hotelId, referenceHotelName: change.name, ...(change.facts ?? referenceFactsIn(held)) })
      : held;
  const shownHotels = (entry: BookEntry) => [entry, ...(entry.decision ? [entry.decision] : [])];
  const entry = {
    ...changed(current),
    engine: changed(current.engine),
    candidates: current.candidates.map((candidate) =>
      candidate.referenceHotelId === change.hotelId ? { ...candidate, referenceHotelName: change.name } : candidate,
    ),
    ...(current.decision && { decision: changed(current.decision) }),
  };
  const [before, after] = [shownHotels(current), shownHotels(entry)];
  const renamed = before.some((held, k) => held.referenceHotelName !== after[k]!.referenceHotelName);
  const refacted = before.some((held, k) => !sameReferenceFacts(held, after[k]!));
  if (!renamed && !refacted) return { entry: current };
  const pointing = before.find((held) => held.referenceHotelId === change.hotelId);
  const what = [
    ...(renamed ? [`is now named "${change.name}"${pointing?.referenceHotelName ? ` (was "${pointing.referenceHotelName}")` : ''}`] : []),
    ...(refacted ? ['has another place or other supplier codes'] : []),
  ];
  const reason = `The reference hotel ${change.hotelId} ${what.join(' and ')}`;
  return {
    entry: withHistory({ ...entry, reason, changedAt: at, cause: { kind: 'PUBLICATION', referenceVersionId } }, current.history, 'UPDATED'),
    change: 'UPDATED',
  };
}

/**
 * An entry mapped again against a new publication (`answer`: the engine's answer there), because the
 * hotel it pointed at left the reference (GONE) or moved (MOVED), or hotels are new near it
 * (NEAR_NEW). A person's decision for a hotel that is gone goes back to REVIEW, shown with it; an
 * entry mapped again because its hotel moved, or an UNMATCHED one tried again, changes only when
 * the engine's answer does.
 */
export function applyRemap(
  current: BookEntry,
  answer: EngineAnswer,
  at: string,
  referenceVersionId: string,
  why: { kind: 'GONE'; hotelId: string } | { kind: 'MOVED'; hotelId: string } | { kind: 'NEAR_NEW' },
): Outcome {
  const cause: ChangeCause = { kind: 'PUBLICATION', referenceVersionId };
  const row: JobRow = { ...answer, source: current.source, partnerHotelId: current.partnerHotelId, partner: current.partner };
  const listed = current.listedAt && { listedAt: current.listedAt };
  if (why.kind === 'NEAR_NEW') {
    if (!isRetriable(current) || answer.status === 'UNMATCHED') return { entry: current };
    const entry = {
      ...engineEntry(row, at, cause, `Tried again against hotels new near it: the engine now says ${describe(answer)}`),
      ...listed,
    };
    return { entry: withHistory(entry, current.history, 'UPDATED'), change: 'UPDATED' };
  }
  if (why.kind === 'MOVED') {
    if (current.method === 'MANUAL' || (answer.status === current.status && answer.referenceHotelId === current.referenceHotelId))
      return { entry: current };
    const entry = {
      ...engineEntry(
        row,
        at,
        cause,
        `The reference hotel ${why.hotelId} moved: mapped again, the engine now says ${describe(answer)} (was ${describe(current)})`,
      ),
      ...listed,
    };
    return { entry: withHistory(entry, current.history, 'UPDATED'), change: 'UPDATED' };
  }
  const decided = current.method === 'MANUAL' && current.decision?.referenceHotelId === why.hotelId;
  const decision = decided || current.decision ? current.decision : undefined;
  const reason = decided
    ? `The hotel of the decision, ${why.hotelId}, left the reference: review it again. The engine now says ${describe(answer)}.`
    : `The reference hotel ${why.hotelId} left the reference: mapped again, the engine now says ${describe(answer)}`;
  const entry = { ...engineEntry(row, at, cause, reason), ...(decision && { status: 'REVIEW' as const, decision }), ...listed };
  return { entry: withHistory(entry, current.history, 'UPDATED'), change: 'UPDATED' };
}
