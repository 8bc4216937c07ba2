import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { MappingJob, StoredResult } from '../../../shared/mapping-jobs/job';
import { jobView, resultView } from '../../../shared/mapping-jobs/views';

function job(overrides: Partial<MappingJob> = {}): MappingJob {
  return {
    id: 'job-1',
    organizationId: 'org-secret',
    partnerInventoryId: 'inv-1',
    mode: 'HYBRID',
    status: 'RUNNING',
    supplier: { id: 'sup-internal-id', code: 'HOTELBEDS', name: 'Hotelbeds' },
    reference: { artifactsId: 'ref-2026-03', dataVersionId: 'data-version-internal', matchingIndexKey: 'reference/ref-2026-03/index.bin' },
    chunkCount: 3,
    doneChunks: new Set([0, 2]),
    counts: { total: 3, processed: 1, matched: 1, review: 0, unmatched: 0, unchanged: 0 },
    createdAt: '2026-03-01T12:00:00.000Z',
    startedAt: '2026-03-01T12:00:01.000Z',
    updatedAt: '2026-03-01T12:00:02.000Z',
    ...overrides,
  };
}

const engineResult: StoredResult = {
  chunk: 0,
  partnerHotelId: 'p1',
  partnerHotelName: 'Lutetia',
  referenceHotelId: 'ref-lutetia',
  referenceHotelName: 'Hotel Lutetia',
  status: 'MATCHED',
  method: 'FUZZY',
  score: 0.97,
  evidence: {
    nameSimilarity: 0.9,
    distanceMeters: 120,
    addressMatch: true,
    addressSimilarity: 1,
    postalCodeMatch: true,
    cityMatch: true,
    countryMatch: true,
  },
  candidates: [{ referenceHotelId: 'ref-other', referenceHotelName: 'Other', score: 0.02, nameSimilarity: 0.3, distanceMeters: 900 }],
};

describe('what partners see of a job', () => {
  it('is its ids, name, status, mode, whether partial, supplier code, reference version, counts, progress, dates, and when its results expire (30 days after creation)', () => {
    assert.deepEqual(jobView(job()), {
      mappingJobId: 'job-1',
      // A job created before jobs had names.
      name: null,
      partnerInventoryId: 'inv-1',
      status: 'RUNNING',
      mode: 'HYBRID',
      partial: false,
      supplierCode: 'HOTELBEDS',
      referenceVersionId: 'ref-2026-03',
      counts: { total: 3, processed: 1, matched: 1, review: 0, unmatched: 0, unchanged: 0 },
      progress: 0.3333,
      createdAt: '2026-03-01T12:00:00.000Z',
      startedAt: '2026-03-01T12:00:01.000Z',
      completedAt: undefined,
      failedAt: undefined,
      cancelledAt: undefined,
      updatedAt: '2026-03-01T12:00:02.000Z',
      expiresAt: '2026-03-31T12:00:00.000Z',
      error: undefined,
    });
  });

  it('shows progress as the share of rows processed, to four decimals, from 0 to 1', () => {
    const progress = (processed: number, total: number) =>
      jobView(job({ counts: { total, processed, matched: 0, review: 0, unmatched: processed, unchanged: 0 } })).progress;
    assert.equal(progress(0, 4_001), 0);
    assert.equal(progress(2, 3), 0.6667);
    assert.equal(progress(2_000, 4_001), 0.4999);
    assert.equal(progress(4_001, 4_001), 1);
    // A job of no rows has nothing left to do.
    assert.equal(progress(0, 0), 1);
  });

  it('has no supplier code for a STANDARD job, and says why a job failed', () => {
    const view = jobView(
      job({
        mode: 'STANDARD',
        supplier: undefined,
        status: 'FAILED',
        failedAt: '2026-03-01T13:00:00.000Z',
        error: 'The partner inventory was deleted while the job ran.',
      }),
    );
    assert.equal(view.supplierCode, undefined);
    assert.equal(view.failedAt, '2026-03-01T13:00:00.000Z');
    assert.equal(view.error, 'The partner inventory was deleted while the job ran.');
  });

  it('never shows the organization, the supplier’s internal id, the pinned index or the chunk bookkeeping', () => {
    const view = jobView(job());
    const text = JSON.stringify(view);
    for (const hidden of ['org-secret', 'sup-internal-id', 'data-version-internal', 'index.bin']) assert.ok(!text.includes(hidden), hidden);
    for (const field of ['organizationId', 'supplier', 'reference', 'chunkCount', 'doneChunks']) assert.ok(!(field in view), field);
  });
});

describe('what partners see of a result', () => {
  it('is the engine’s answer: the hotel, status, method, score, evidence, candidates and reason (not the chunk that mapped it)', () => {
    const { chunk: _chunk, ...shown } = engineResult;
    assert.deepEqual(resultView({ ...engineResult, reason: 'two look-alikes' }, []), {
      ...shown,
      referenceHotelCity: null,
      referenceHotelCountryCode: null,
      supplierCodes: {},
      confidence: 'HIGH',
      reason: 'two look-alikes',
      reasonCode: undefined,
      review: undefined,
    });
  });

  it('shows the codes of the hotel at the suppliers the organization is connected to, and no other', () => {
    const coded = {
      ...engineResult,
      referenceHotelCity: 'Paris',
      referenceHotelCountryCode: 'FR',
      supplierCodes: { HOTELBEDS: '12345', EXPEDIA: '998877', AGODA: '5' },
    };
    const view = resultView(coded, ['EXPEDIA', 'hotelbeds', 'WEBBEDS']);
    assert.deepEqual(view.supplierCodes, { EXPEDIA: '998877', HOTELBEDS: '12345' });
    assert.deepEqual([view.referenceHotelCity, view.referenceHotelCountryCode], ['Paris', 'FR']);
    assert.deepEqual(resultView(coded, []).supplierCodes, {}, 'none connected, none shown');
  });

  it('includes a person’s decision when there was one', () => {
    const review = {
      decision: 'NO_MATCH' as const,
      previous: { status: 'MATCHED' as const, referenceHotelId: 'ref-lutetia', score: 0.97 },
      note: 'closed in 2025',
      decidedBy: 'key-1',
      decidedAt: '2026-03-02T09:00:00.000Z',
    };
    const view = resultView(
      {
        ...engineResult,
        status: 'UNMATCHED',
        method: 'MANUAL',
        referenceHotelId: null,
        referenceHotelName: null,
        score: 0,
        evidence: null,
        review,
      },
      [],
    );
    assert.equal(view.method, 'MANUAL');
    assert.equal(view.reasonCode, 'DECIDED_NO_MATCH');
    assert.deepEqual(view.review, review);
  });

  it('never shows the storage keys a row is read with', () => {
    const stored = {
      ...engineResult,
      PK: 'JOB#job-1',
      SK: 'RESULT#p1',
      GSI1PK: 'JOB#job-1#MATCHED#FUZZY',
      GSI1SK: '0.9700#p1',
      sortKey: '0.9700#p1',
    };
    const view = resultView(stored, []);
    for (const field of ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'sortKey']) assert.ok(!(field in view), field);
  });
});
