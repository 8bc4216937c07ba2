import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { buildMatchingIndex, decisionThresholds, type MappingResult, type PartnerHotel, type ReferenceHotel } from '../../../shared/mapping';
import { resolveJobClaims, toJsonLines, type ClaimPorts } from '../../../shared/mapping-jobs/claims';
import { emptyCounts, jobObjects, type JobCounts, type MappingJob, type StoredResult } from '../../../shared/mapping-jobs/job';

const reference: ReferenceHotel[] = [
  { id: 'lutetia', name: 'Hotel Lutetia', address: '45 Boulevard Raspail', city: 'Paris', country: 'France', lat: 48.8511, lon: 2.3271, supplierCodes: { HOTELBEDS: '111' } },
  { id: 'adlon', name: 'Hotel Adlon Kempinski', address: 'Unter den Linden 77', city: 'Berlin', country: 'Germany', lat: 52.5163, lon: 13.3806, supplierCodes: {} },
  ...Array.from({ length: 30 }, (_, i) => ({ id: `filler-${i}`, name: `Hotel Garden ${i}`, city: 'Paris', country: 'FR', lat: 48.85 + i / 1000, lon: 2.3, supplierCodes: {} })),
];
const index = buildMatchingIndex(reference);

const rows: Record<string, PartnerHotel> = {
  p1: { id: 'p1', name: 'Hotel Lutetia', city: 'Paris', country: 'FR', lat: 48.8511, lon: 2.3271 },
  p2: { id: 'p2', name: 'Nowhere Inn', city: 'Oslo', country: 'NO' },
  // Another hotel entirely, wrongly matched to the Lutetia as well.
  p3: { id: 'p3', name: 'Hotel Adlon Kempinski', city: 'Berlin', country: 'DE', lat: 52.5163, lon: 13.3806 },
  // The Lutetia again, a few metres off: the partner listed it twice.
  p4: { id: 'p4', name: 'Hotel Lutetia', city: 'Paris', country: 'FR', lat: 48.8512, lon: 2.3272 },
  p5: { id: 'p5', name: 'Hotel Adlon Kempinski', city: 'Berlin', country: 'DE', lat: 52.5163, lon: 13.3806 },
};

function result(partnerHotelId: string, status: MappingResult['status'], referenceHotelId: string | null, score: number, method: MappingResult['method'] = status === 'UNMATCHED' ? null : 'FUZZY'): MappingResult {
  return {
    partnerHotelId,
    partnerHotelName: rows[partnerHotelId]?.name ?? partnerHotelId,
    referenceHotelId,
    referenceHotelName: reference.find((hotel) => hotel.id === referenceHotelId)?.name ?? null,
    status,
    method,
    score,
    evidence: null,
    candidates: [],
  };
}

const job: MappingJob = {
  id: 'job-1',
  organizationId: 'org-1',
  partnerInventoryId: 'inv-1',
  mode: 'STANDARD',
  status: 'RUNNING',
  reference: { artifactsId: 'ref-1', dataVersionId: 'dv-1', matchingIndexKey: 'index-1' },
  chunkCount: 3,
  doneChunks: new Set([0, 1, 2]),
  counts: emptyCounts(5),
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

/** The job's results files and rows, its views and counts, in memory; every write noted. */
class JobInMemory implements ClaimPorts {
  readonly files = new Map<string, string>();
  views: StoredResult[] | undefined;
  readonly filesWritten: string[] = [];
  readonly rowsRead: number[] = [];
  viewWrites = 0;
  indexLoads = 0;
  counts: Omit<JobCounts, 'total'> | undefined;
  inventoryDeleted = false;

  constructor(readonly chunks: MappingResult[][]) {
    chunks.forEach((results, chunk) => this.files.set(jobObjects.results(job, chunk), toJsonLines(results)));
  }

  readonly jobs: ClaimPorts['jobs'] = {
    setCounts: async (_job, counts) => {
      this.counts = counts;
      return true;
    },
  };

  async rows(_job: MappingJob, chunk: number): Promise<PartnerHotel[] | undefined> {
    this.rowsRead.push(chunk);
    if (this.inventoryDeleted) return undefined;
    return this.chunks[chunk]!.map((row) => rows[row.partnerHotelId]!);
  }

  async index() {
    this.indexLoads++;
    return index;
  }

  async putResultsFile(key: string, jsonLines: string): Promise<void> {
    this.filesWritten.push(key);
    this.files.set(key, jsonLines);
  }

  async readResultsFile(key: string): Promise<string | undefined> {
    return this.files.get(key);
  }

  async putResultViews(_job: MappingJob, results: readonly StoredResult[]): Promise<void> {
    this.viewWrites++;
    this.views = JSON.parse(JSON.stringify(results)) as StoredResult[];
  }

  /** A chunk's results as its file now holds them. */
  fileResults(chunk: number): MappingResult[] {
    const text = this.files.get(jobObjects.results(job, chunk))!;
    return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as MappingResult);
  }
}

/** Two rows of different chunks claim the Lutetia, a third is the first one listed twice. */
const contested = () => [
  [result('p1', 'MATCHED', 'lutetia', 0.95), result('p2', 'UNMATCHED', null, 0)],
  [result('p3', 'MATCHED', 'lutetia', 0.91), result('p4', 'MATCHED', 'lutetia', 0.93)],
  [result('p5', 'MATCHED', 'adlon', 0.9)],
];

describe('results as JSON lines', () => {
  it('are one line per result, in order, that read back as the same results', () => {
    const results = [result('p1', 'MATCHED', 'lutetia', 0.95), { ...result('p2', 'REVIEW', 'adlon', 0.2), reason: 'two look-alikes' }];
    const text = toJsonLines(results);
    assert.equal(text.split('\n').length, 2);
    assert.ok(!text.endsWith('\n'));
    assert.deepEqual(text.split('\n').map((line) => JSON.parse(line) as unknown), results);
  });

  it('keep a result on its line even when a name holds a line break', () => {
    const text = toJsonLines([{ ...result('p1', 'UNMATCHED', null, 0), partnerHotelName: 'Hotel\nLutetia\r\n' }, result('p2', 'UNMATCHED', null, 0)]);
    assert.equal(text.split('\n').length, 2);
    assert.equal((JSON.parse(text.split('\n')[0]!) as MappingResult).partnerHotelName, 'Hotel\nLutetia\r\n');
  });

  it('are an empty file for no result', () => {
    assert.equal(toJsonLines([]), '');
  });
});

describe('the finishing stage of a job: one reference hotel is one partner hotel', () => {
  it('sends a weaker claimant from another chunk to review, held below the match threshold', async () => {
    const ports = new JobInMemory(contested());
    assert.equal(await resolveJobClaims(ports, job), true);
    const p3 = ports.fileResults(1)[0]!;
    const match = decisionThresholds({}).match;
    assert.equal(p3.status, 'REVIEW');
    assert.ok(p3.score < match, `${p3.score} < ${match}`);
    assert.equal(p3.score, Math.round((match - 0.001) * 1000) / 1000);
    assert.match(p3.reason!, /claimed by partner row p1/);
    // The strongest claimant keeps the hotel.
    assert.deepEqual(ports.fileResults(0)[0], result('p1', 'MATCHED', 'lutetia', 0.95));
  });

  it('lets the same hotel listed twice by the partner keep its match, saying so', async () => {
    const ports = new JobInMemory(contested());
    await resolveJobClaims(ports, job);
    const p4 = ports.fileResults(1)[1]!;
    assert.equal(p4.status, 'MATCHED');
    assert.equal(p4.score, 0.93);
    assert.match(p4.reason!, /same hotel as partner row p1/);
  });

  it('rewrites only the files of the chunks that hold changed rows, and writes the views from every row as it ends up, with its chunk', async () => {
    const ports = new JobInMemory(contested());
    const untouched = [ports.files.get(jobObjects.results(job, 0)), ports.files.get(jobObjects.results(job, 2))];
    await resolveJobClaims(ports, job);
    assert.deepEqual(
      ports.views,
      [0, 1, 2].flatMap((chunk) => ports.fileResults(chunk).map((row) => ({ ...row, chunk }))),
    );
    assert.deepEqual(ports.filesWritten, [jobObjects.results(job, 1)]);
    assert.deepEqual([ports.files.get(jobObjects.results(job, 0)), ports.files.get(jobObjects.results(job, 2))], untouched);
  });

  it('reads the rows of the contested chunks only', async () => {
    const ports = new JobInMemory(contested());
    await resolveJobClaims(ports, job);
    assert.deepEqual([...new Set(ports.rowsRead)].sort(), [0, 1]);
  });

  it('sets the job’s counts from the results as the rule left them', async () => {
    const ports = new JobInMemory(contested());
    await resolveJobClaims(ports, job);
    assert.deepEqual(ports.counts, { processed: 5, matched: 3, review: 1, unmatched: 1, unchanged: 0 });
  });

  it('changes nothing when no two rows claim one hotel, and reads no row or index for it', async () => {
    const ports = new JobInMemory([[result('p1', 'MATCHED', 'lutetia', 0.95)], [result('p3', 'REVIEW', 'lutetia', 0.3)], [result('p5', 'MATCHED', 'adlon', 0.9)]]);
    const before = new Map(ports.files);
    assert.equal(await resolveJobClaims(ports, job), true);
    assert.equal(ports.viewWrites, 1, 'the views are written all the same');
    assert.deepEqual(ports.filesWritten, []);
    assert.deepEqual(ports.rowsRead, []);
    assert.equal(ports.indexLoads, 0);
    assert.deepEqual(ports.files, before);
    assert.deepEqual(ports.counts, { processed: 3, matched: 2, review: 1, unmatched: 0, unchanged: 0 });
  });

  it('leaves two supplier-code matches of one hotel both matched', async () => {
    const ports = new JobInMemory([[result('p1', 'MATCHED', 'lutetia', 1, 'ID')], [result('p3', 'MATCHED', 'lutetia', 1, 'ID')], []]);
    await resolveJobClaims(ports, job);
    assert.deepEqual([...ports.fileResults(0), ...ports.fileResults(1)].map((row) => row.status), ['MATCHED', 'MATCHED']);
    assert.deepEqual(ports.counts, { processed: 2, matched: 2, review: 0, unmatched: 0, unchanged: 0 });
  });

  it('is safe to repeat: a second pass over its own output changes nothing more', async () => {
    const ports = new JobInMemory(contested());
    await resolveJobClaims(ports, job);
    const after = new Map(ports.files);
    const views = ports.views;
    assert.equal(await resolveJobClaims(ports, job), true);
    assert.deepEqual(ports.files, after);
    assert.equal(ports.viewWrites, 2);
    assert.deepEqual(ports.views, views, 'the same views again');
    assert.deepEqual(ports.counts, { processed: 5, matched: 3, review: 1, unmatched: 1, unchanged: 0 });
  });

  it('answers false, writing nothing, when the inventory is gone and the contested rows cannot be read', async () => {
    const ports = new JobInMemory(contested());
    ports.inventoryDeleted = true;
    const before = new Map(ports.files);
    assert.equal(await resolveJobClaims(ports, job), false);
    assert.equal(ports.viewWrites, 0);
    assert.deepEqual(ports.files, before);
    assert.equal(ports.counts, undefined);
  });

  it('fails loudly when a chunk’s results file is missing', async () => {
    const ports = new JobInMemory(contested());
    ports.files.delete(jobObjects.results(job, 2));
    await assert.rejects(resolveJobClaims(ports, job), /The results of chunk 2 of job job-1 are missing\./);
    assert.equal(ports.counts, undefined);
  });
});
