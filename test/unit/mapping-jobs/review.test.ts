import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { PartnerEvent } from '../../../shared/events';
import type { ReferenceHotelShown } from '../../../shared/mapping';
import { ManualClock } from '../../../shared/platform/clock';
import { DomainError, type FailureKind } from '../../../shared/platform/errors';
import { emptyCounts, type MappingJob, type StoredResult } from '../../../shared/mapping-jobs/job';
import { DECISIONS_PER_COMMIT } from '../../../shared/mapping-book';
import {
  REVIEW_BATCH_MAX_ROWS,
  reviewResult,
  reviewResults,
  type CommitOutcome,
  type PreparedDecision,
  type ReviewInput,
  type ReviewPorts,
} from '../../../shared/mapping-jobs/review';

const job: MappingJob = {
  id: 'job-1',
  organizationId: 'org-1',
  partnerInventoryId: 'inv-1',
  mode: 'STANDARD',
  status: 'COMPLETED',
  reference: { artifactsId: 'ref-1', dataVersionId: 'dv-1', matchingIndexKey: 'index-1' },
  chunkCount: 1,
  counts: { ...emptyCounts(1), processed: 1, review: 1 },
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:05:00.000Z',
};

const evidence = {
  nameSimilarity: 0.7,
  distanceMeters: 40,
  addressMatch: null,
  addressSimilarity: null,
  postalCodeMatch: null,
  cityMatch: true,
  countryMatch: true,
};

/** A row the engine put in REVIEW: its proposal and one runner-up. */
const engineRow: StoredResult = {
  chunk: 0,
  partnerHotelId: 'p1',
  partnerHotelName: 'Ibis Gare',
  referenceHotelId: 'ibis-nord',
  referenceHotelName: 'Ibis Paris Gare du Nord',
  status: 'REVIEW',
  method: 'FUZZY',
  score: 0.35,
  evidence,
  candidates: [
    { referenceHotelId: 'ibis-est', referenceHotelName: 'Ibis Paris Gare de l’Est', score: 0.3, nameSimilarity: 0.8, distanceMeters: 210 },
  ],
  reason: 'two look-alikes',
};

/**
 * The store calls a review makes, in memory: the row as read, and the decisions, each written only
 * if its row is still as it was read (the store's condition).
 */
class ResultsInMemory {
  readonly rows = new Map<string, StoredResult>();
  /** The rows as the engine left them. */
  readonly engineRows = new Map<string, StoredResult>();
  readonly decisions: { job: Pick<MappingJob, 'id' | 'organizationId'>; read: StoredResult; updated: StoredResult; event: PartnerEvent }[] =
    [];
  /** Set to make the next decision lose a race with another one. */
  raced = false;

  async getResult(jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    assert.equal(jobId, job.id);
    return this.rows.get(partnerHotelId);
  }

  /** Commits each decision whose row is still as it was read; a raced one is lost. */
  async commit(decidedJob: Pick<MappingJob, 'organizationId' | 'id'>, decisions: readonly PreparedDecision[]): Promise<CommitOutcome[]> {
    return decisions.map(({ read, updated, event }) => {
      if (this.raced || this.rows.get(read.partnerHotelId) !== read) return { outcome: 'LOST' };
      this.decisions.push({ job: decidedJob, read, updated, event });
      this.rows.set(updated.partnerHotelId, updated);
      return { outcome: 'COMMITTED' };
    });
  }
}

/** Hotels of the current reference publication, by id. */
const currentReference = new Map<string, ReferenceHotelShown>([
  [
    'lutetia',
    { referenceHotelId: 'lutetia', referenceHotelName: 'Hotel Lutetia', referenceHotelCity: 'Paris', supplierCodes: { HOTELBEDS: '77' } },
  ],
  ['ibis-nord', { referenceHotelId: 'ibis-nord', referenceHotelName: 'Ibis Paris Gare du Nord' }],
  ['ibis-est', { referenceHotelId: 'ibis-est', referenceHotelName: 'Ibis Paris Gare de l’Est', supplierCodes: { EXPEDIA: '12' } }],
]);

function setUp(...rows: StoredResult[]) {
  const results = new ResultsInMemory();
  for (const row of rows.length > 0 ? rows : [engineRow]) {
    results.rows.set(row.partnerHotelId, row);
    results.engineRows.set(row.partnerHotelId, row);
  }
  const lookedUp: string[] = [];
  const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
  let ids = 0;
  const ports: ReviewPorts = {
    // reviewResult reads and decides through these two calls only.
    jobs: results,
    resultOf: (reviewed, partnerHotelId) => results.getResult(reviewed.id, partnerHotelId),
    engineResultOf: async (_reviewed, partnerHotelId) => results.engineRows.get(partnerHotelId),
    clock,
    newId: () => `event-${++ids}`,
    referenceHotel: async (id) => {
      lookedUp.push(id);
      return currentReference.get(id);
    },
  };
  const review = (input: Partial<ReviewInput> & Pick<ReviewInput, 'decision'>) =>
    reviewResult(ports, { job, partnerHotelId: 'p1', decidedBy: 'key-1', ...input });
  const reviewBatch = (decisions: Parameters<typeof reviewResults>[1]['decisions']) =>
    reviewResults(ports, { job, decisions, decidedBy: 'key-1' });
  const committedGroups: number[] = [];
  const commit = results.commit.bind(results);
  results.commit = async (decidedJob, decisions) => {
    committedGroups.push(decisions.length);
    return commit(decidedJob, decisions);
  };
  return { results, lookedUp, clock, review, reviewBatch, committedGroups };
}

async function refused(attempt: Promise<unknown>, kind: FailureKind, message: string | RegExp): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe('reviewing a result row', () => {
  it('is possible only once the job has completed', async () => {
    for (const status of ['PENDING', 'RUNNING', 'FAILED', 'CANCELLED'] as const) {
      const { results, review } = setUp();
      await refused(
        review({ job: { ...job, status }, decision: 'NO_MATCH' }),
        'conflict',
        `The job is ${status}; results can be reviewed once it is COMPLETED.`,
      );
      assert.equal(results.decisions.length, 0);
    }
  });

  it('refuses a row the job does not have', async () => {
    const { results, review } = setUp();
    await refused(review({ partnerHotelId: 'p404', decision: 'NO_MATCH' }), 'not_found', 'The job has no result for partner hotel p404.');
    assert.equal(results.decisions.length, 0);
  });

  it('NO_MATCH: leaves the row unmatched, by hand, with no hotel, score or evidence, and keeps the runners-up', async () => {
    const { results, review } = setUp();
    const updated = await review({ decision: 'NO_MATCH', note: 'closed in 2025' });
    assert.deepEqual(updated, {
      ...engineRow,
      status: 'UNMATCHED',
      method: 'MANUAL',
      referenceHotelId: null,
      referenceHotelName: null,
      score: 0,
      evidence: null,
      review: {
        decision: 'NO_MATCH',
        previous: { status: 'REVIEW', referenceHotelId: 'ibis-nord', score: 0.35 },
        note: 'closed in 2025',
        decidedBy: 'key-1',
        decidedAt: '2026-03-02T09:00:00.000Z',
      },
      proposal: { referenceHotelId: 'ibis-nord', referenceHotelName: 'Ibis Paris Gare du Nord', evidence },
    });
    assert.deepEqual(results.decisions[0]?.read, engineRow);
    assert.deepEqual(results.decisions[0]?.updated, updated);
  });

  it('MATCH with the engine’s own proposal: matched by hand at score 1, keeping its name and evidence', async () => {
    const { lookedUp, review } = setUp();
    const updated = await review({ decision: 'MATCH', referenceHotelId: 'ibis-nord' });
    assert.equal(updated.status, 'MATCHED');
    assert.equal(updated.method, 'MANUAL');
    assert.equal(updated.score, 1);
    assert.equal(updated.referenceHotelId, 'ibis-nord');
    assert.equal(updated.referenceHotelName, 'Ibis Paris Gare du Nord');
    assert.deepEqual(updated.evidence, evidence);
    assert.deepEqual(lookedUp, []);
  });

  it('MATCH with a runner-up: takes its name and supplier codes from the current reference and drops the evidence, which was about another hotel', async () => {
    const { lookedUp, review } = setUp();
    const updated = await review({ decision: 'MATCH', referenceHotelId: 'ibis-est' });
    assert.equal(updated.referenceHotelId, 'ibis-est');
    assert.equal(updated.referenceHotelName, 'Ibis Paris Gare de l’Est');
    assert.deepEqual(updated.supplierCodes, { EXPEDIA: '12' });
    assert.equal(updated.evidence, null);
    assert.equal(updated.status, 'MATCHED');
    assert.deepEqual(lookedUp, ['ibis-est']);
  });

  it('MATCH with any other hotel: takes its name from the current reference, whatever the case of the id sent', async () => {
    const { lookedUp, review } = setUp();
    const updated = await review({ decision: 'MATCH', referenceHotelId: 'LUTETIA' });
    assert.equal(updated.referenceHotelId, 'lutetia');
    assert.equal(updated.referenceHotelName, 'Hotel Lutetia');
    assert.deepEqual([updated.referenceHotelCity, updated.supplierCodes], ['Paris', { HOTELBEDS: '77' }]);
    assert.equal(updated.evidence, null);
    assert.deepEqual(lookedUp, ['lutetia']);
  });

  it('MATCH with a hotel the reference does not have is refused, and nothing is decided', async () => {
    const { results, review } = setUp();
    await refused(
      review({ decision: 'MATCH', referenceHotelId: 'nowhere' }),
      'invalid_input',
      'referenceHotelId: no reference hotel has the id nowhere.',
    );
    assert.equal(results.decisions.length, 0);
  });

  it('records MAPPING_ERROR_RESOLVED with the decision and what the engine had said, in the same write', async () => {
    const { results, review } = setUp();
    await review({ decision: 'MATCH', referenceHotelId: 'ibis-est', note: 'checked by phone' });
    assert.deepEqual(results.decisions[0]?.event, {
      id: 'event-1',
      type: 'MAPPING_ERROR_RESOLVED',
      organizationId: 'org-1',
      occurredAt: '2026-03-02T09:00:00.000Z',
      data: {
        mappingJobId: 'job-1',
        source: 'OWN',
        partnerHotelId: 'p1',
        decision: 'MATCH',
        referenceHotelId: 'ibis-est',
        previousStatus: 'REVIEW',
        previousReferenceHotelId: 'ibis-nord',
        note: 'checked by phone',
        decidedBy: 'key-1',
        decidedAt: '2026-03-02T09:00:00.000Z',
      },
    });
    assert.deepEqual(results.decisions[0]?.job, job);
  });

  it('a second review keeps what the engine had said, not what the first review said', async () => {
    const { results, clock, review } = setUp();
    await review({ decision: 'NO_MATCH', decidedBy: 'key-1' });
    clock.advance(60_000);
    const second = await review({ decision: 'MATCH', referenceHotelId: 'lutetia', decidedBy: 'key-2' });
    assert.deepEqual(second.review, {
      decision: 'MATCH',
      previous: { status: 'REVIEW', referenceHotelId: 'ibis-nord', score: 0.35 },
      note: undefined,
      decidedBy: 'key-2',
      decidedAt: '2026-03-02T09:01:00.000Z',
    });
    // The second decision was made on the row as the first one left it.
    assert.equal(results.decisions[1]?.read.review?.decidedBy, 'key-1');
    assert.equal(results.decisions[1]?.event.data.previousStatus, 'REVIEW');
  });

  it('MATCH with the engine’s proposal after a NO_MATCH restores its name and evidence, even once the reference has dropped the hotel', async () => {
    const { lookedUp, review } = setUp();
    await review({ decision: 'NO_MATCH' });
    const dropped = currentReference.get('ibis-nord')!;
    currentReference.delete('ibis-nord');
    try {
      const restored = await review({ decision: 'MATCH', referenceHotelId: 'ibis-nord' });
      assert.equal(restored.referenceHotelName, 'Ibis Paris Gare du Nord');
      assert.deepEqual(restored.evidence, evidence);
      assert.deepEqual(lookedUp, []);
    } finally {
      currentReference.set('ibis-nord', dropped);
    }
  });

  it('is refused as a conflict when another decision changed the row meanwhile', async () => {
    const { results, review } = setUp();
    results.raced = true;
    await refused(review({ decision: 'NO_MATCH' }), 'conflict', /^The row p1 was decided by another request meanwhile/);
    assert.deepEqual(results.rows.get('p1'), engineRow);
  });

  it('WITHDRAW takes the decision back: the engine’s row again, with MAPPING_ERROR_RESOLVED saying so', async () => {
    const { results, clock, review } = setUp();
    const decided = await review({ decision: 'NO_MATCH' });
    clock.advance(60_000);
    const withdrawn = await review({ decision: 'WITHDRAW', expectedDecidedAt: decided.review!.decidedAt });
    assert.deepEqual(withdrawn, engineRow);
    assert.deepEqual(results.rows.get('p1'), engineRow);
    const { read, event } = results.decisions[1]!;
    assert.equal(read, decided);
    assert.deepEqual(event.data, {
      mappingJobId: 'job-1',
      source: 'OWN',
      partnerHotelId: 'p1',
      decision: 'WITHDRAW',
      referenceHotelId: 'ibis-nord',
      previousStatus: 'UNMATCHED',
      previousReferenceHotelId: null,
      note: undefined,
      decidedBy: 'key-1',
      decidedAt: '2026-03-02T09:01:00.000Z',
    });
  });

  it('WITHDRAW of a row without a decision is a conflict, and changes nothing', async () => {
    const { results, review } = setUp();
    await refused(review({ decision: 'WITHDRAW' }), 'conflict', 'The row p1 has no decision to withdraw.');
    assert.equal(results.decisions.length, 0);
  });

  it('expectedDecidedAt: a decision on a row someone else decided since it was read is refused, and changes nothing', async () => {
    const { results, clock, review } = setUp();
    const first = await review({ decision: 'NO_MATCH', expectedDecidedAt: null });
    clock.advance(1000);
    await refused(
      review({ decision: 'MATCH', referenceHotelId: 'ibis-nord', expectedDecidedAt: null }),
      'conflict',
      `The row p1 changed since you read it: it was decided NO_MATCH at ${first.review!.decidedAt}. Read it again and decide again if needed.`,
    );
    await refused(
      review({ decision: 'WITHDRAW', expectedDecidedAt: '2026-03-02T08:00:00.000Z' }),
      'conflict',
      /^The row p1 changed since you read it/,
    );
    assert.equal(results.decisions.length, 1);
    // The one read is decided on.
    const second = await review({ decision: 'MATCH', referenceHotelId: 'ibis-nord', expectedDecidedAt: first.review!.decidedAt });
    assert.equal(second.status, 'MATCHED');
  });
});

describe('reviewing rows in a batch', () => {
  const rowsOf = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ ...engineRow, partnerHotelId: `p${String(i).padStart(3, '0')}` }));

  it('decides every row as a single review would, committed at most DECISIONS_PER_COMMIT rows together, in the order given', async () => {
    const rows = rowsOf(60);
    const { results, reviewBatch, committedGroups } = setUp(...rows);
    const outcome = await reviewBatch(
      rows.map((row) => ({
        partnerHotelId: row.partnerHotelId,
        decision: 'MATCH',
        referenceHotelId: 'ibis-nord',
        expectedDecidedAt: null,
      })),
    );
    assert.deepEqual(outcome.refused, []);
    assert.deepEqual(
      outcome.decided.map((row) => row.partnerHotelId),
      rows.map((row) => row.partnerHotelId),
    );
    assert.ok(outcome.decided.every((row) => row.status === 'MATCHED' && row.method === 'MANUAL' && row.review?.decidedBy === 'key-1'));
    assert.deepEqual(committedGroups, [
      ...Array.from({ length: Math.floor(60 / DECISIONS_PER_COMMIT) }, () => DECISIONS_PER_COMMIT),
      60 % DECISIONS_PER_COMMIT,
    ]);
    assert.equal(results.decisions.length, 60);
    assert.equal(new Set(results.decisions.map((decision) => decision.event.id)).size, 60, 'one event per row');
  });

  it('refuses the rows a single review would refuse, each with why, and decides the rest', async () => {
    const rows = rowsOf(5);
    const { results, reviewBatch } = setUp(...rows);
    const outcome = await reviewBatch([
      { partnerHotelId: 'p000', decision: 'NO_MATCH' },
      { partnerHotelId: 'p404', decision: 'NO_MATCH' },
      { partnerHotelId: 'p001', decision: 'MATCH', referenceHotelId: 'nowhere' },
      { partnerHotelId: 'p002', decision: 'WITHDRAW' },
      { partnerHotelId: 'p003', decision: 'NO_MATCH', expectedDecidedAt: '2026-03-02T08:00:00.000Z' },
      { partnerHotelId: 'p004', decision: 'MATCH', referenceHotelId: 'lutetia' },
    ]);
    assert.deepEqual(
      outcome.decided.map((row) => [row.partnerHotelId, row.status, row.referenceHotelId]),
      [
        ['p000', 'UNMATCHED', null],
        ['p004', 'MATCHED', 'lutetia'],
      ],
    );
    assert.deepEqual(
      outcome.refused.map(({ partnerHotelId, error }) => [partnerHotelId, error.kind, error.message]),
      [
        ['p404', 'not_found', 'The job has no result for partner hotel p404.'],
        ['p001', 'invalid_input', 'referenceHotelId: no reference hotel has the id nowhere.'],
        ['p002', 'conflict', 'The row p002 has no decision to withdraw.'],
        [
          'p003',
          'conflict',
          'The row p003 changed since you read it: it has no decision any more. Read it again and decide again if needed.',
        ],
      ],
    );
    assert.equal(results.decisions.length, 2);
  });

  it('answers a row lost to another decision as a conflict', async () => {
    const { results, reviewBatch } = setUp(...rowsOf(2));
    results.raced = true;
    const outcome = await reviewBatch([{ partnerHotelId: 'p000', decision: 'NO_MATCH' }]);
    assert.deepEqual(outcome.decided, []);
    assert.match(outcome.refused[0]!.error.message, /^The row p000 was decided by another request meanwhile/);
  });

  it('refuses a batch naming a row twice, or of more than REVIEW_BATCH_MAX_ROWS rows, before deciding anything', async () => {
    const { results, reviewBatch } = setUp(...rowsOf(2));
    await refused(
      reviewBatch([
        { partnerHotelId: 'p000', decision: 'NO_MATCH' },
        { partnerHotelId: 'p001', decision: 'NO_MATCH' },
        { partnerHotelId: 'p000', decision: 'WITHDRAW' },
      ]),
      'invalid_input',
      'decisions: the row p000 is decided twice; a batch decides each row once.',
    );
    await refused(
      reviewBatch(
        Array.from({ length: REVIEW_BATCH_MAX_ROWS + 1 }, (_, i) => ({ partnerHotelId: `x${i}`, decision: 'NO_MATCH' as const })),
      ),
      'invalid_input',
      `decisions: at most ${REVIEW_BATCH_MAX_ROWS} rows a batch, not ${REVIEW_BATCH_MAX_ROWS + 1}.`,
    );
    assert.equal(results.decisions.length, 0);
  });
});
