/**
 * A person resolves a result row: accepts one of its candidates, sets another reference hotel, or
 * says it has no match; or takes the decision back (WITHDRAW). The row records who decided and
 * when; results, exports and the mapping book show the decision; the change is recorded as
 * MAPPING_ERROR_RESOLVED.
 */
import type { Clock } from '../platform/clock';
import { conflict, invalidInput, notFound } from '../platform/errors';
import type { PartnerEvent } from '../events';
import type { MappingJob, ReviewDecision, StoredResult } from './job';
import type { MappingJobStore } from './store';
import { OWN_SOURCE } from '../mapping-book';
import { referenceFactsIn, withReferenceFacts, type ReferenceHotelFacts, type ReferenceHotelShown } from '../mapping';

/** The event of a decision on a row. */
export type ResolvedEvent = Extract<PartnerEvent, { type: 'MAPPING_ERROR_RESOLVED' }>;

export interface ReviewPorts {
  jobs: {
    decide: MappingJobStore['decide'];
    /** Takes a decision back, like `decide`: false when another decision changed the row meanwhile. */
    withdraw(job: MappingJob, read: StoredResult, engine: StoredResult, event: ResolvedEvent): Promise<boolean>;
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

export interface ReviewInput {
  job: MappingJob;
  partnerHotelId: string;
  decision: 'MATCH' | 'NO_MATCH' | 'WITHDRAW';
  referenceHotelId?: string;
  note?: string;
  /** The row's review.decidedAt as the person read it (null: undecided); undefined decides whatever the row holds. */
  expectedDecidedAt?: string | null;
  decidedBy: string;
}

export async function reviewResult(ports: ReviewPorts, input: ReviewInput): Promise<StoredResult> {
  const { job } = input;
  if (job.status !== 'COMPLETED') throw conflict(`The job is ${job.status}; results can be reviewed once it is COMPLETED.`);
  const result = await ports.resultOf(job, input.partnerHotelId);
  if (!result) throw notFound(`The job has no result for partner hotel ${input.partnerHotelId}.`);
  if (input.expectedDecidedAt !== undefined && (result.review?.decidedAt ?? null) !== input.expectedDecidedAt) {
    const now = result.review ? `was decided ${result.review.decision} at ${result.review.decidedAt}` : 'has no decision any more';
    throw conflict(`The row ${result.partnerHotelId} changed since you read it: it ${now}. Read it again and decide again if needed.`);
  }
  const now = ports.clock.now().toISOString();
  if (input.decision === 'WITHDRAW') return withdraw(ports, input, result, now);

  // A second review keeps what the engine had said, not what the first review said.
  const previous = result.review?.previous ?? { status: result.status, referenceHotelId: result.referenceHotelId, score: result.score };
  const review: ReviewDecision = { decision: input.decision, previous, note: input.note, decidedBy: input.decidedBy, decidedAt: now };
  const proposal = result.review ? result.proposal : proposalOf(result);
  let updated: StoredResult;
  if (input.decision === 'NO_MATCH') {
    updated = { ...withReferenceFacts(result, {}), status: 'UNMATCHED', method: 'MANUAL', referenceHotelId: null, referenceHotelName: null, score: 0, evidence: null, review, proposal };
  } else {
    const chosen = input.referenceHotelId!.toLowerCase();
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
  // The row, its counts and its event in one transaction (the outbox).
  if (!(await ports.jobs.decide(job, result, updated, event))) {
    throw decidedMeanwhile(result);
  }
  return updated;
}

/** A decision taken back: the engine's row shows again. */
async function withdraw(ports: ReviewPorts, input: ReviewInput, result: StoredResult, now: string): Promise<StoredResult> {
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
  if (!(await ports.jobs.withdraw(job, result, engine, event))) {
    throw decidedMeanwhile(result);
  }
  return engine;
}

/** The answer to a decision that lost its row to another one between its read and its write. */
const decidedMeanwhile = (result: StoredResult) =>
  conflict(`The row ${result.partnerHotelId} was decided by another request meanwhile; read it again and decide again if needed.`);

type Resolution = Pick<ResolvedEvent['data'], 'decision' | 'referenceHotelId' | 'previousStatus' | 'previousReferenceHotelId'>;

/** MAPPING_ERROR_RESOLVED: what a person made of the row, and what it was before. */
function resolvedEvent(ports: Pick<ReviewPorts, 'newId'>, input: ReviewInput & { source: string }, now: string, resolution: Resolution): ResolvedEvent {
  return {
    id: ports.newId(),
    type: 'MAPPING_ERROR_RESOLVED',
    organizationId: input.job.organizationId,
    occurredAt: now,
    data: { mappingJobId: input.job.id, source: input.source, partnerHotelId: input.partnerHotelId, ...resolution, note: input.note, decidedBy: input.decidedBy, decidedAt: now },
  };
}

/** What the engine proposed, from a row no one has reviewed yet. */
function proposalOf(result: StoredResult): StoredResult['proposal'] {
  if (result.referenceHotelId === null) return undefined;
  return { referenceHotelId: result.referenceHotelId, referenceHotelName: result.referenceHotelName, ...referenceFactsIn(result), evidence: result.evidence };
}

/** The row's own hotel as the row has it; any other (a candidate too: they carry no codes) as the current reference has it. */
async function hotelOf(ports: ReviewPorts, result: StoredResult, referenceHotelId: string): Promise<Pick<ReferenceHotelShown, 'referenceHotelName'> & ReferenceHotelFacts | undefined> {
  if (referenceHotelId === result.referenceHotelId && result.referenceHotelName) return { referenceHotelName: result.referenceHotelName, ...referenceFactsIn(result) };
  return ports.referenceHotel(referenceHotelId);
}
