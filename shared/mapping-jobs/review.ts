/**
 * A person resolves a result row: accepts one of its candidates, sets another reference hotel, or
 * says it has no match; or takes the decision back (WITHDRAW). The row records who decided and
 * when; results, exports and the mapping book show the decision; the change is recorded as
 * MAPPING_ERROR_RESOLVED.
 */
import type { Clock } from '../platform/clock';
import { conflict, DomainError, invalidInput, notFound } from '../platform/errors';
import { blocksOf } from '../platform/objects/block-files';
import type { PartnerEvent } from '../events';
import type { MappingJob, ReviewDecision, StoredResult } from './job';
import { DECISIONS_PER_COMMIT, OWN_SOURCE } from '../mapping-book';
import { referenceFactsIn, withReferenceFacts, type ReferenceHotelFacts, type ReferenceHotelShown } from '../mapping';

/** The event of a decision on a row. */
export type ResolvedEvent = Extract<PartnerEvent, { type: 'MAPPING_ERROR_RESOLVED' }>;

/**
 * A decision ready to commit: the row as read and as it becomes (the engine's row again, for a
 * withdrawal), with its event.
 */
export interface PreparedDecision {
  kind: 'DECISION' | 'WITHDRAWAL';
  read: StoredResult;
  updated: StoredResult;
  event: ResolvedEvent;
}

/** What became of a prepared decision: committed; refused by the book (its DomainError); or lost to another decision on its row. */
export type CommitOutcome = { outcome: 'COMMITTED' } | { outcome: 'REFUSED'; error: DomainError } | { outcome: 'LOST' };

export interface ReviewPorts {
  jobs: {
    /**
     * Commits decisions on distinct rows of a job (at most DECISIONS_PER_COMMIT) together: each row
     * only if still as read and leased to no one but `leaseHolder`, with its event, the counts moved
     * and the book's entries.
     */
    commit(job: MappingJob, decisions: readonly PreparedDecision[], leaseHolder: string | undefined): Promise<CommitOutcome[]>;
  };
  /** The job's row of a partner hotel, as decided if someone did. */
  resultOf(job: MappingJob, partnerHotelId: string): Promise<StoredResult | undefined>;
  /** The job's row of a partner hotel as the engine left it. */
  engineResultOf(job: MappingJob, partnerHotelId: string): Promise<StoredResult | undefined>;
  clock: Clock;
  newId: () => string;
  /** A reference hotel of the current publication, or undefined when there is none. */
  referenceHotel(referenceHotelId: string): Promise<ReferenceHotelShown | undefined>;
}

/** One row's decision, as a request gives it. */
export interface RowDecision {
  partnerHotelId: string;
  decision: 'MATCH' | 'NO_MATCH' | 'WITHDRAW';
  referenceHotelId?: string;
  note?: string;
  /** The row's review.decidedAt as the person read it (null: undecided); undefined decides whatever the row holds. */
  expectedDecidedAt?: string | null;
}

export interface ReviewInput extends RowDecision {
  job: MappingJob;
  decidedBy: string;
  /** The reviewer's lease holder name: a row leased to another holder is not decided (leases.ts). */
  leaseHolder?: string;
}

/** Rows one batch decides at most. */
export const REVIEW_BATCH_MAX_ROWS = 500;
/** Rows of a batch read at once. */
const BATCH_READS = 16;

export async function reviewResult(ports: ReviewPorts, input: ReviewInput): Promise<StoredResult> {
  const { job } = input;
  refuseUnlessCompleted(job);
  const prepared = await prepareDecision(ports, input, ports.clock.now().toISOString());
  const [committed] = await ports.jobs.commit(job, [prepared], input.leaseHolder);
  if (committed?.outcome === 'REFUSED') throw committed.error;
  if (committed?.outcome === 'LOST') throw decidedMeanwhile(prepared.read);
  return prepared.updated;
}

/** What became of a batch: the rows decided, as they now are, and the ones refused with why, each in the order given. */
export interface BatchOutcome {
  decided: StoredResult[];
  refused: { partnerHotelId: string; error: DomainError }[];
}

/**
 * Decisions on up to REVIEW_BATCH_MAX_ROWS distinct rows of a job, each checked as a single review
 * is, committed DECISIONS_PER_COMMIT rows a transaction. A row refused leaves the others decided.
 */
export async function reviewResults(
  ports: ReviewPorts,
  input: { job: MappingJob; decisions: readonly RowDecision[]; decidedBy: string; leaseHolder?: string },
): Promise<BatchOutcome> {
  const { job, decisions, decidedBy, leaseHolder } = input;
  refuseUnlessCompleted(job);
  if (decisions.length > REVIEW_BATCH_MAX_ROWS)
    throw invalidInput(`decisions: at most ${REVIEW_BATCH_MAX_ROWS} rows a batch, not ${decisions.length}.`);
  const repeated = decisions.find((decision, i) => decisions.findIndex((other) => other.partnerHotelId === decision.partnerHotelId) !== i);
  if (repeated) throw invalidInput(`decisions: the row ${repeated.partnerHotelId} is decided twice; a batch decides each row once.`);
  const now = ports.clock.now().toISOString();
  // Many rows of a batch name the same hotel: each is read once.
  const hotels = new Map<string, Promise<ReferenceHotelShown | undefined>>();
  const referenceHotel = (id: string) => {
    const read = hotels.get(id) ?? ports.referenceHotel(id);
    hotels.set(id, read);
    return read;
  };
  const cached: ReviewPorts = { ...ports, referenceHotel };
  const prepared: (PreparedDecision | DomainError)[] = [];
  for (const slice of blocksOf(decisions, BATCH_READS)) {
    prepared.push(
      ...(await Promise.all(
        slice.map((decision) =>
          prepareDecision(cached, { ...decision, job, decidedBy }, now).catch((error: unknown) => {
            if (error instanceof DomainError) return error;
            throw error;
          }),
        ),
      )),
    );
  }
  const outcomes: (StoredResult | DomainError)[] = prepared.map((decision) =>
    decision instanceof DomainError ? decision : decision.updated,
  );
  const going = prepared.flatMap((decision, i) => (decision instanceof DomainError ? [] : [{ decision, i }]));
  for (const group of blocksOf(going, DECISIONS_PER_COMMIT)) {
    const committed = await ports.jobs.commit(
      job,
      group.map(({ decision }) => decision),
      leaseHolder,
    );
    committed.forEach((commit, at) => {
      const { decision, i } = group[at]!;
      if (commit.outcome === 'REFUSED') outcomes[i] = commit.error;
      else if (commit.outcome === 'LOST') outcomes[i] = decidedMeanwhile(decision.read);
    });
  }
  return {
    decided: outcomes.filter((outcome): outcome is StoredResult => !(outcome instanceof DomainError)),
    refused: outcomes.flatMap((outcome, i) =>
      outcome instanceof DomainError ? [{ partnerHotelId: decisions[i]!.partnerHotelId, error: outcome }] : [],
    ),
  };
}

function refuseUnlessCompleted(job: MappingJob): void {
  if (job.status !== 'COMPLETED') throw conflict(`The job is ${job.status}; results can be reviewed once it is COMPLETED.`);
}

/** A row's decision checked against the row as it now is, and what it makes of it; throws the refusal. */
async function prepareDecision(ports: ReviewPorts, input: ReviewInput, now: string): Promise<PreparedDecision> {
  const { job } = input;
  const result = await ports.resultOf(job, input.partnerHotelId);
  if (!result) throw notFound(`The job has no result for partner hotel ${input.partnerHotelId}.`);
  if (input.expectedDecidedAt !== undefined && (result.review?.decidedAt ?? null) !== input.expectedDecidedAt) {
    const state = result.review ? `was decided ${result.review.decision} at ${result.review.decidedAt}` : 'has no decision any more';
    throw conflict(`The row ${result.partnerHotelId} changed since you read it: it ${state}. Read it again and decide again if needed.`);
  }
  if (input.decision === 'WITHDRAW') return prepareWithdrawal(ports, input, result, now);

  // A second review keeps what the engine had said, not what the first review said.
  const previous = result.review?.previous ?? { status: result.status, referenceHotelId: result.referenceHotelId, score: result.score };
  const review: ReviewDecision = { decision: input.decision, previous, note: input.note, decidedBy: input.decidedBy, decidedAt: now };
  const proposal = result.review ? result.proposal : proposalOf(result);
  let updated: StoredResult;
  if (input.decision === 'NO_MATCH') {
    updated = {
      ...withReferenceFacts(result, {}),
      status: 'UNMATCHED',
      method: 'MANUAL',
      referenceHotelId: null,
      referenceHotelName: null,
      score: 0,
      evidence: null,
      review,
      proposal,
    };
  } else {
    if (input.referenceHotelId === undefined) throw invalidInput('referenceHotelId: a MATCH names the reference hotel the row is.');
    const chosen = input.referenceHotelId.toLowerCase();
    const accepted = proposal?.referenceHotelId === chosen ? proposal : undefined;
    const hotel = accepted ?? (await hotelOf(ports, result, chosen));
    if (!hotel?.referenceHotelName) throw invalidInput(`referenceHotelId: no reference hotel has the id ${input.referenceHotelId}.`);
    updated = {
      ...withReferenceFacts(result, hotel),
      status: 'MATCHED',
      method: 'MANUAL',
      referenceHotelId: chosen,
      referenceHotelName: hotel.referenceHotelName,
      score: 1,
      // The evidence described the engine's candidate: it stays only when that candidate was accepted.
      evidence: accepted?.evidence ?? (chosen === previous.referenceHotelId ? result.evidence : null),
      review,
      proposal,
    };
  }
  const event = resolvedEvent(ports, { ...input, source: result.source ?? OWN_SOURCE }, now, {
    decision: input.decision,
    referenceHotelId: updated.referenceHotelId,
    previousStatus: previous.status,
    previousReferenceHotelId: previous.referenceHotelId,
  });
  return { kind: 'DECISION', read: result, updated, event };
}

/** A decision taken back: the engine's row shows again. */
async function prepareWithdrawal(ports: ReviewPorts, input: ReviewInput, result: StoredResult, now: string): Promise<PreparedDecision> {
  const { job } = input;
  if (!result.review) throw conflict(`The row ${result.partnerHotelId} has no decision to withdraw.`);
  const engine = await ports.engineResultOf(job, result.partnerHotelId);
  if (!engine) throw notFound(`The job has no result for partner hotel ${result.partnerHotelId}.`);
  const event = resolvedEvent(ports, { ...input, source: result.source ?? OWN_SOURCE }, now, {
    decision: 'WITHDRAW',
    referenceHotelId: engine.referenceHotelId,
    previousStatus: result.status,
    previousReferenceHotelId: result.referenceHotelId,
  });
  return { kind: 'WITHDRAWAL', read: result, updated: engine, event };
}

/** The answer to a decision that lost its row to another one between its read and its write. */
const decidedMeanwhile = (result: StoredResult) =>
  conflict(`The row ${result.partnerHotelId} was decided by another request meanwhile; read it again and decide again if needed.`);

type Resolution = Pick<ResolvedEvent['data'], 'decision' | 'referenceHotelId' | 'previousStatus' | 'previousReferenceHotelId'>;

/** MAPPING_ERROR_RESOLVED: what a person made of the row, and what it was before. */
function resolvedEvent(
  ports: Pick<ReviewPorts, 'newId'>,
  input: ReviewInput & { source: string },
  now: string,
  resolution: Resolution,
): ResolvedEvent {
  return {
    id: ports.newId(),
    type: 'MAPPING_ERROR_RESOLVED',
    organizationId: input.job.organizationId,
    occurredAt: now,
    data: {
      mappingJobId: input.job.id,
      source: input.source,
      partnerHotelId: input.partnerHotelId,
      ...resolution,
      note: input.note,
      decidedBy: input.decidedBy,
      decidedAt: now,
    },
  };
}

/** What the engine proposed, from a row no one has reviewed yet. */
function proposalOf(result: StoredResult): StoredResult['proposal'] {
  if (result.referenceHotelId === null) return undefined;
  return {
    referenceHotelId: result.referenceHotelId,
    referenceHotelName: result.referenceHotelName,
    ...referenceFactsIn(result),
    evidence: result.evidence,
  };
}

/** The row's own hotel as the row has it; any other (a candidate too: they carry no codes) as the current reference has it. */
async function hotelOf(
  ports: ReviewPorts,
  result: StoredResult,
  referenceHotelId: string,
): Promise<(Pick<ReferenceHotelShown, 'referenceHotelName'> & ReferenceHotelFacts) | undefined> {
  if (referenceHotelId === result.referenceHotelId && result.referenceHotelName)
    return { referenceHotelName: result.referenceHotelName, ...referenceFactsIn(result) };
  return ports.referenceHotel(referenceHotelId);
}
