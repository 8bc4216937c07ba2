import assert from 'node:assert/strict';
import { FileReads, ReadCache } from '../../../shared/platform/objects/block-files';
import { describe, it } from '@jest/globals';
import {
  buildMatchingIndex,
  decisionThresholds,
  type MappingResult,
  type PartnerHotel,
  type ReferenceHotel,
} from '../../../shared/mapping';
import { toJsonLines } from '../../../shared/mapping-jobs/results-files';
import {
  claimsFileOf,
  DEFAULT_FINISHING_SIZES,
  finishingPlan,
  runFinishingPart,
  startFinishing,
  type FinishingPorts,
  type FinishingSizes,
} from '../../../shared/mapping-jobs/finishing';
import {
  emptyCounts,
  jobObjects,
  type FinishingPlan,
  type FinishingState,
  type JobCounts,
  type MappingJob,
  type StoredResult,
} from '../../../shared/mapping-jobs/job';
import type { ChunkMessage, FinishingMessage } from '../../../shared/mapping-jobs/queues';
import { EngineRowsInOrder, RESULT_PARTITIONS, ResultViews } from '../../../shared/mapping-jobs/result-views';
import { partitionName } from '../../../shared/mapping-jobs/store';
import { inventoryChunkRows } from '../../../shared/partner-inventories';

const reference: ReferenceHotel[] = [
  {
    id: 'lutetia',
    name: 'Hotel Lutetia',
    address: '45 Boulevard Raspail',
    city: 'Paris',
    country: 'France',
    lat: 48.8511,
    lon: 2.3271,
    supplierCodes: { HOTELBEDS: '111' },
  },
  {
    id: 'adlon',
    name: 'Hotel Adlon Kempinski',
    address: 'Unter den Linden 77',
    city: 'Berlin',
    country: 'Germany',
    lat: 52.5163,
    lon: 13.3806,
    supplierCodes: {},
  },
  ...Array.from({ length: 30 }, (_, i) => ({
    id: `filler-${i}`,
    name: `Hotel Garden ${i}`,
    city: 'Paris',
    country: 'FR',
    lat: 48.85 + i / 1000,
    lon: 2.3,
    supplierCodes: {},
  })),
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

function result(
  partnerHotelId: string,
  status: MappingResult['status'],
  referenceHotelId: string | null,
  score: number,
  method: MappingResult['method'] = status === 'UNMATCHED' ? null : 'FUZZY',
): MappingResult {
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

/** The job's results and claims files and rows, its views and counts, in memory; every write noted. */
let instances = 0;

class JobInMemory implements FinishingPorts {
  readonly files = new Map<string, string>();
  readonly objects = new Map<string, Buffer>();
  readonly filesWritten: string[] = [];
  readonly rowsRead: number[] = [];
  readonly sent: FinishingMessage[] = [];
  indexLoads = 0;
  /** A job of its own: blocks read are kept per function, by file. */
  job: MappingJob = { ...job, id: `job-${++instances}`, doneChunks: new Set(job.doneChunks) };
  counts: Omit<JobCounts, 'total'> | undefined;
  inventoryDeleted = false;

  constructor(readonly chunks: MappingResult[][]) {
    chunks.forEach((results, chunk) => {
      this.files.set(jobObjects.results(this.job, chunk), toJsonLines(results));
      this.files.set(jobObjects.claims(this.job, chunk), claimsFileOf(results));
    });
  }

  state: FinishingState | undefined;

  readonly jobs: FinishingPorts['jobs'] = {
    get: async () => structuredClone(this.job),
    finishing: async () => this.state && structuredClone(this.state),
    planFinishing: async (_job, plan: FinishingPlan) => {
      this.state ??= { plan };
      return structuredClone(this.state);
    },
    planMerges: async (_job, partitions) => {
      this.state!.plan.merges ??= partitions;
      return this.state!.plan.merges;
    },
    finishingPartDone: async (_job, stage, part) => {
      const state = this.state!;
      if (stage === 'claims') (state.doneClaimParts ??= new Set()).add(part as number);
      else if (stage === 'views') (state.doneViewParts ??= new Set()).add(part as number);
      else (state.doneMerges ??= new Set()).add(part as string);
      return structuredClone(state);
    },
    setCounts: async (_job, counts) => {
      this.counts = counts;
      return true;
    },
  };

  readonly finishing = {
    sendAll: async (messages: readonly ChunkMessage[]) => {
      this.sent.push(...(messages as FinishingMessage[]));
    },
  };

  readonly views = {
    get: async (key: string, range?: { start: number; length: number }) => {
      const bytes = this.objects.get(key);
      return range ? bytes?.subarray(range.start, range.start + range.length) : bytes;
    },
    put: async (key: string, body: Buffer | string) => {
      this.objects.set(key, Buffer.from(body));
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

  /** A chunk's results as its file now holds them. */
  fileResults(chunk: number): MappingResult[] {
    const text = this.files.get(jobObjects.results(this.job, chunk))!;
    return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as MappingResult);
  }

  /** The views' rows in partner id order. */
  async viewRows(): Promise<StoredResult[]> {
    const views = new EngineRowsInOrder({ objects: this.views, files: new FileReads() }, this.job, 500);
    return views.rows(0, (await views.outline()).firstIds.length);
  }

  /** The rows of a partition of the views, best score first. */
  async partition(name: string): Promise<string[]> {
    const decisions = {
      getDecision: async () => undefined,
      decisionsBetween: async () => [],
      decidedBetween: async () => new Set<string>(),
      decisionsOfPartition: async () => [],
    };
    const rows = await new ResultViews(
      { objects: this.views, files: new FileReads(), searchColumns: new ReadCache(4) },
      decisions,
      this.job,
    ).resultsOfPartition(
      RESULT_PARTITIONS.find(({ status, method }) => partitionName(status, method) === name)!,
      { lowest: '0', highest: '9' },
      1_000,
    );
    return rows.map((row) => row.partnerHotelId);
  }
}

/** Runs the finishing stage as the queue would, every message it sends delivered in turn; its last outcome. */
async function finish(ports: JobInMemory, sizes: FinishingSizes = DEFAULT_FINISHING_SIZES): Promise<string> {
  await startFinishing(ports, ports.job, sizes);
  let outcome = 'running';
  while (ports.sent.length > 0) {
    outcome = await runFinishingPart(ports, ports.sent.shift()!, sizes);
    if (outcome === 'inventory_gone') return outcome;
  }
  return outcome;
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
    assert.deepEqual(
      text.split('\n').map((line) => JSON.parse(line) as unknown),
      results,
    );
  });

  it('keep a result on its line even when a name holds a line break', () => {
    const text = toJsonLines([
      { ...result('p1', 'UNMATCHED', null, 0), partnerHotelName: 'Hotel\nLutetia\r\n' },
      result('p2', 'UNMATCHED', null, 0),
    ]);
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
    assert.equal(await finish(ports), 'complete');
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
    await finish(ports);
    const p4 = ports.fileResults(1)[1]!;
    assert.equal(p4.status, 'MATCHED');
    assert.equal(p4.score, 0.93);
    assert.match(p4.reason!, /same hotel as partner row p1/);
  });

  it('rewrites only the results files of the chunks that hold changed rows, and writes the views from every row as it ends up, with its chunk', async () => {
    const ports = new JobInMemory(contested());
    const untouched = [ports.files.get(jobObjects.results(ports.job, 0)), ports.files.get(jobObjects.results(ports.job, 2))];
    await finish(ports);
    assert.deepEqual(
      await ports.viewRows(),
      [0, 1, 2].flatMap((chunk) => ports.fileResults(chunk).map((row) => ({ ...row, chunk }))),
    );
    assert.deepEqual(
      ports.filesWritten.filter((key) => key.includes('/results/')),
      [jobObjects.results(ports.job, 1)],
    );
    assert.deepEqual([ports.files.get(jobObjects.results(ports.job, 0)), ports.files.get(jobObjects.results(ports.job, 2))], untouched);
  });

  it('reads the rows of the contested chunks only', async () => {
    const ports = new JobInMemory(contested());
    await finish(ports);
    assert.deepEqual([...new Set(ports.rowsRead)].sort(), [0, 1]);
  });

  it('sets the job’s counts from the results as the rule left them', async () => {
    const ports = new JobInMemory(contested());
    await finish(ports);
    assert.deepEqual(ports.counts, { processed: 5, matched: 3, review: 1, unmatched: 1, unchanged: 0 });
  });

  it('gives the same results, views and counts cut into a part per hotel claimed and per chunk as in one part', async () => {
    const whole = new JobInMemory(contested());
    const parts = new JobInMemory(contested());
    await finish(whole);
    assert.equal(await finish(parts, { claimPartRows: 1, viewPartRows: 1 }), 'complete');
    assert.deepEqual({ ...parts.state!.plan }, { claimParts: 5, viewParts: 3, merges: ['MATCHED#FUZZY'] });
    for (const chunk of [0, 1, 2]) assert.deepEqual(parts.fileResults(chunk), whole.fileResults(chunk));
    assert.deepEqual(await parts.viewRows(), await whole.viewRows());
    for (const partition of ['MATCHED#FUZZY', 'REVIEW#FUZZY', 'UNMATCHED#NONE'])
      assert.deepEqual(await parts.partition(partition), await whole.partition(partition), partition);
    assert.deepEqual(await parts.partition('MATCHED#FUZZY'), ['p1', 'p4', 'p5']);
    assert.deepEqual(parts.counts, whole.counts);
  });

  it('changes nothing when no two rows claim one hotel, and reads no row or index for it', async () => {
    const ports = new JobInMemory([
      [result('p1', 'MATCHED', 'lutetia', 0.95)],
      [result('p3', 'REVIEW', 'lutetia', 0.3)],
      [result('p5', 'MATCHED', 'adlon', 0.9)],
    ]);
    const before = new Map(ports.files);
    assert.equal(await finish(ports), 'complete');
    assert.equal((await ports.viewRows()).length, 3, 'the views are written all the same');
    assert.deepEqual(
      ports.filesWritten.filter((key) => key.includes('/results/')),
      [],
    );
    assert.deepEqual(ports.rowsRead, []);
    assert.equal(ports.indexLoads, 0);
    for (const [key, text] of before) assert.equal(ports.files.get(key), text);
    assert.deepEqual(ports.counts, { processed: 3, matched: 2, review: 1, unmatched: 0, unchanged: 0 });
  });

  it('leaves two supplier-code matches of one hotel both matched', async () => {
    const ports = new JobInMemory([[result('p1', 'MATCHED', 'lutetia', 1, 'ID')], [result('p3', 'MATCHED', 'lutetia', 1, 'ID')], []]);
    await finish(ports);
    assert.deepEqual(
      [...ports.fileResults(0), ...ports.fileResults(1)].map((row) => row.status),
      ['MATCHED', 'MATCHED'],
    );
    assert.deepEqual(ports.counts, { processed: 2, matched: 2, review: 0, unmatched: 0, unchanged: 0 });
  });

  it('cuts a job into claims parts of 500,000 rows and views parts of whole chunks, at most 100,000 rows each', () => {
    const plan = (rows: number) =>
      finishingPlan({ counts: emptyCounts(rows), chunkCount: Math.ceil(rows / inventoryChunkRows(rows)) }, DEFAULT_FINISHING_SIZES);
    assert.deepEqual(plan(4_000), { claimParts: 1, viewParts: 1 });
    assert.deepEqual(plan(150_000), { claimParts: 1, viewParts: 2 }, '10 chunks of 10,000');
    assert.deepEqual(plan(1_000_000), { claimParts: 2, viewParts: 10 });
    assert.deepEqual(plan(2_300_000), { claimParts: 5, viewParts: 23 });
  });

  it('is safe to repeat: every part delivered again changes nothing more', async () => {
    const TWO_CHUNKS = 2 * inventoryChunkRows(job.counts.total);
    const ports = new JobInMemory(contested());
    await finish(ports, { claimPartRows: 2, viewPartRows: TWO_CHUNKS });
    const after = new Map(ports.files);
    const views = new Map(ports.objects);
    const plan = ports.state!.plan;
    const again: FinishingMessage[] = [
      ...Array.from({ length: plan.claimParts }, (_, part) => ({
        organizationId: job.organizationId,
        mappingJobId: ports.job.id,
        finishing: 'claims' as const,
        part,
      })),
      ...Array.from({ length: plan.viewParts }, (_, part) => ({
        organizationId: job.organizationId,
        mappingJobId: ports.job.id,
        finishing: 'views' as const,
        part,
      })),
      ...(plan.merges ?? []).map((partition) => ({
        organizationId: job.organizationId,
        mappingJobId: ports.job.id,
        finishing: 'scores' as const,
        partition,
      })),
    ];
    for (const message of again) await runFinishingPart(ports, message, { claimPartRows: 2, viewPartRows: TWO_CHUNKS });
    assert.deepEqual(ports.files, after);
    assert.deepEqual(ports.objects, views);
    assert.deepEqual(ports.counts, { processed: 5, matched: 3, review: 1, unmatched: 1, unchanged: 0 });
  });

  it('answers that the inventory is gone, writing no results or views, when the contested rows cannot be read', async () => {
    const ports = new JobInMemory(contested());
    ports.inventoryDeleted = true;
    const before = new Map(ports.files);
    assert.equal(await finish(ports), 'inventory_gone');
    assert.equal(ports.objects.size, 0);
    assert.deepEqual(ports.files, before);
    assert.equal(ports.counts, undefined);
  });

  it('fails loudly when a chunk’s claims file is missing', async () => {
    const ports = new JobInMemory(contested());
    ports.files.delete(jobObjects.claims(ports.job, 1));
    await assert.rejects(finish(ports), new RegExp(`The claims of chunk 1 of job ${ports.job.id} are missing\\.`));
    assert.equal(ports.counts, undefined);
  });

  it('fails loudly when a chunk’s results file is missing', async () => {
    const ports = new JobInMemory(contested());
    ports.files.delete(jobObjects.results(ports.job, 2));
    await assert.rejects(finish(ports), new RegExp(`The results of chunk 2 of job ${ports.job.id} are missing\\.`));
    assert.equal(ports.counts, undefined);
  });
});
