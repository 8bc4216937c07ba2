import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ManualClock } from '../../../shared/platform/clock';
import { DomainError } from '../../../shared/platform/errors';
import {
  EXPORT_MAX_ROWS,
  EXPORT_SYNC_MAX_ROWS,
  exportPlan,
  requestExport,
  type PreparationPorts,
} from '../../../shared/mapping-jobs/export-preparation';
import { mappingExportQueue } from '../../../shared/mapping-jobs/queues';
import type { MappingJob } from '../../../shared/mapping-jobs/job';
import type { PreparedExport } from '../../../shared/mapping-jobs/export-store';
import { resolveFormat } from '../../../shared/export-format';

describe('how a job is exported', () => {
  it('writes up to the threshold within the request, prepares larger jobs in the background, and refuses what one file cannot hold', () => {
    assert.equal(exportPlan(0, EXPORT_SYNC_MAX_ROWS), 'now');
    assert.equal(exportPlan(EXPORT_SYNC_MAX_ROWS, EXPORT_SYNC_MAX_ROWS), 'now');
    assert.equal(exportPlan(EXPORT_SYNC_MAX_ROWS + 1, EXPORT_SYNC_MAX_ROWS), 'prepare');
    assert.equal(exportPlan(EXPORT_MAX_ROWS, EXPORT_SYNC_MAX_ROWS), 'prepare');
    assert.equal(exportPlan(EXPORT_MAX_ROWS + 1, EXPORT_SYNC_MAX_ROWS), 'too_large');
    assert.equal(exportPlan(31, 30), 'prepare', 'the threshold is the one configured');
  });

  it('keeps the worker within its timeout at the slowest rate measured (9,000 rows/s), and the request well under the gateway’s 29 s', () => {
    assert.ok(EXPORT_MAX_ROWS / 9_000 <= mappingExportQueue.lambda.timeoutSeconds / 2);
    assert.ok(EXPORT_SYNC_MAX_ROWS / 9_000 <= 10);
  });
});

describe('asking for an export', () => {
  const clock = new ManualClock(new Date('2026-11-28T10:00:00.000Z'));
  const job = (processed: number): MappingJob => ({
    id: 'job-1',
    organizationId: 'org-1',
    partnerInventoryId: 'inv-1',
    mode: 'STANDARD',
    status: 'COMPLETED',
    reference: { artifactsId: 'a', dataVersionId: 'd', matchingIndexKey: 'k' },
    chunkCount: Math.ceil(processed / 2_000),
    counts: { total: processed, processed, matched: processed, review: 0, unmatched: 0, unchanged: 0 },
    createdAt: clock.now().toISOString(),
    updatedAt: clock.now().toISOString(),
  });
  /** Ports that record every write and send, and hold one export as read. */
  const ports = (current?: PreparedExport) => {
    const writes: string[] = [];
    const fake: PreparationPorts = {
      jobs: { get: async () => undefined, decisions: async () => [] },
      exports: {
        get: async () => ({ decisionsVersion: 0, ...(current && { current }) }),
        claim: async () => (writes.push('claim'), true),
        release: async () => void writes.push('release'),
        markReady: async () => (writes.push('markReady'), true),
      },
      objects: {} as PreparationPorts['objects'],
      queue: { send: async () => void writes.push('send'), sendAll: async () => void writes.push('sendAll') },
      clock,
      newId: () => 'export-2',
      syncMaxRows: 100,
    };
    return { fake, writes };
  };

  it('refuses a job larger than one file holds, with a clear 409, and writes nothing', async () => {
    const { fake, writes } = ports();
    await assert.rejects(requestExport(fake, job(EXPORT_MAX_ROWS + 1), undefined, []), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.kind, 'conflict');
      assert.match(error.message, /at most 4000000\. Read its rows with GET \/api\/v1\/mapping\/job-1\/results/);
      return true;
    });
    assert.deepEqual(writes, []);
  });

  it('tells when to ask again from the rows left at the slowest rate, between 5 and 60 seconds', async () => {
    const preparing = (requestedAt: Date): PreparedExport => ({
      id: 'export-1',
      status: 'PREPARING',
      format: resolveFormat(undefined, []),
      decisionsVersion: 0,
      requestedAt: requestedAt.toISOString(),
    });
    const retryAfter = async (rows: number, secondsAgo: number) => {
      const { fake, writes } = ports(preparing(new Date(clock.now().getTime() - secondsAgo * 1000)));
      const answer = await requestExport(fake, job(rows), undefined, []);
      assert.equal(answer.status, 202);
      assert.deepEqual(writes, [], 'an export under way is answered, not started again');
      return answer.status === 202 ? answer.retryAfterSeconds : undefined;
    };
    assert.equal(await retryAfter(180_000, 0), 20);
    assert.equal(await retryAfter(180_000, 12), 8);
    assert.equal(await retryAfter(180_000, 30), 5);
    assert.equal(await retryAfter(3_000_000, 0), 60);
  });
});
