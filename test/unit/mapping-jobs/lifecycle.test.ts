import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Metering } from '../../../shared/billing';
import { buildMatchingIndex, type MappingMode, type MappingResult, type PartnerHotel } from '../../../shared/mapping';
import type { EngineAnswer } from '../../../shared/mapping-book';
import type { ChunkResult } from '../../../shared/mapping-jobs/unchanged-rows';
import type { PartnerInventory } from '../../../shared/partner-inventories';
import { ManualClock } from '../../../shared/platform/clock';
import { DomainError, forbidden, type FailureKind } from '../../../shared/platform/errors';
import type { DomainEvent } from '../../../shared/platform/events/events';
import type { Queue, ScheduledDelivery, Scheduler } from '../../../shared/platform/queue/queue';
import {
  isReadable,
  JOB_DEADLINE_HOURS,
  jobObjects,
  type FinishingPlan,
  type FinishingState,
  type JobCounts,
  type JobStatus,
  type MappingJob,
} from '../../../shared/mapping-jobs/job';
import {
  cancelJob,
  createMappingJob,
  failJob,
  runChunkMessage,
  type ChunkPorts,
  type CreateJobInput,
  type JobPorts,
  type SupplierLookup,
} from '../../../shared/mapping-jobs/lifecycle';
import { DEFAULT_FINISHING_SIZES } from '../../../shared/mapping-jobs/finishing';
import { mappingDeadlineQueue, type ChunkMessage } from '../../../shared/mapping-jobs/queues';

const T0 = new Date('2026-03-01T12:00:00Z');

const copy = (job: MappingJob): MappingJob => ({
  ...job,
  counts: { ...job.counts },
  ...(job.doneChunks && { doneChunks: new Set(job.doneChunks) }),
});

/**
 * The job store's methods that the lifecycle calls, in memory, each as its documentation in
 * store.ts says: status changes only from the states it names, a chunk counted once.
 */
class JobsInMemory {
  readonly jobs = new Map<string, MappingJob>();
  /** The rows of the chunks' results files, with their chunk. */
  readonly results = new Map<string, ChunkResult & { chunk: number }>();
  readonly files = new Map<string, string>();
  readonly events: DomainEvent[] = [];
  unavailable = false;
  /** Makes the next call of these methods die, as a Lambda timing out would leave it. */
  readonly dieOnce = new Set<'putResultsFile' | 'complete'>();

  async create(job: MappingJob): Promise<void> {
    if (this.unavailable) throw new Error('the table is unavailable');
    this.jobs.set(job.id, copy(job));
  }

  async get(organizationId: string, jobId: string): Promise<MappingJob | undefined> {
    const job = this.jobs.get(jobId);
    return job && job.organizationId === organizationId ? copy(job) : undefined;
  }

  async markRunning(job: MappingJob, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING'], { status: 'RUNNING', startedAt: now, updatedAt: now });
  }

  async recordChunk(job: MappingJob, chunk: number, counts: Omit<JobCounts, 'total'>, now: string): Promise<MappingJob | undefined> {
    const current = this.jobs.get(job.id)!;
    if (current.doneChunks?.has(chunk) || !['PENDING', 'RUNNING'].includes(current.status)) return undefined;
    const c = current.counts;
    current.counts = {
      total: c.total,
      processed: c.processed + counts.processed,
      matched: c.matched + counts.matched,
      review: c.review + counts.review,
      unmatched: c.unmatched + counts.unmatched,
      unchanged: c.unchanged + counts.unchanged,
    };
    current.doneChunks = new Set([...(current.doneChunks ?? []), chunk]);
    current.updatedAt = now;
    return copy(current);
  }

  /** The finishing stage's state, by job. */
  readonly finishings = new Map<string, FinishingState>();

  async finishing(job: Pick<MappingJob, 'id'>): Promise<FinishingState | undefined> {
    return this.finishings.get(job.id);
  }

  async planFinishing(job: Pick<MappingJob, 'id'>, plan: FinishingPlan): Promise<FinishingState> {
    if (!this.finishings.has(job.id)) this.finishings.set(job.id, { plan });
    return this.finishings.get(job.id)!;
  }

  async planMerges(job: Pick<MappingJob, 'id'>, partitions: string[]): Promise<string[]> {
    return (this.finishings.get(job.id)!.plan.merges ??= partitions);
  }

  async finishingPartDone(
    job: Pick<MappingJob, 'id'>,
    stage: 'claims' | 'views' | 'scores',
    part: number | string,
  ): Promise<FinishingState> {
    const state = this.finishings.get(job.id)!;
    if (stage === 'claims') (state.doneClaimParts ??= new Set()).add(part as number);
    else if (stage === 'views') (state.doneViewParts ??= new Set()).add(part as number);
    else (state.doneMerges ??= new Set()).add(part as string);
    return { ...state, plan: { ...state.plan } };
  }

  async setCounts(job: Pick<MappingJob, 'organizationId' | 'id'>, counts: Omit<JobCounts, 'total'>): Promise<boolean> {
    const current = this.jobs.get(job.id)!;
    if (current.status !== 'RUNNING') return false;
    current.counts = { total: current.counts.total, ...counts };
    return true;
  }

  async complete(job: MappingJob, now: string, told: { event: DomainEvent } | { exportFirst: unknown }): Promise<boolean> {
    if (this.dieOnce.delete('complete')) throw new Error('the delivery died');
    const done = this.transition(job, ['RUNNING'], { status: 'COMPLETED', completedAt: now, updatedAt: now });
    if (done && 'event' in told) this.events.push(told.event);
    return done;
  }

  async fail(job: Pick<MappingJob, 'organizationId' | 'id'>, error: string, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING', 'RUNNING'], { status: 'FAILED', failedAt: now, updatedAt: now, error });
  }

  async cancel(job: Pick<MappingJob, 'organizationId' | 'id'>, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING', 'RUNNING'], { status: 'CANCELLED', cancelledAt: now, updatedAt: now });
  }

  async putResultsFile(key: string, text: string): Promise<void> {
    if (this.dieOnce.delete('putResultsFile')) throw new Error('the delivery died');
    this.files.set(key, text);
    if (!key.includes('/results/')) return;
    const chunk = Number(/(\d+)\.jsonl\.gz$/.exec(key)![1]);
    for (const line of text === '' ? [] : text.split('\n')) {
      const result = JSON.parse(line) as ChunkResult;
      this.results.set(result.partnerHotelId, { ...result, chunk });
    }
  }

  private transition(job: Pick<MappingJob, 'id'>, from: readonly JobStatus[], changes: Partial<MappingJob>): boolean {
    const current = this.jobs.get(job.id);
    if (!current || !from.includes(current.status)) return false;
    this.jobs.set(job.id, { ...current, ...changes });
    return true;
  }
}

/** Metering's two calls, noted; reserving can be refused as the ledger would. */
class MeteringInMemory implements Pick<Metering, 'reserve' | 'settle'> {
  readonly reserved: Parameters<Metering['reserve']>[0][] = [];
  readonly settled: Parameters<Metering['settle']>[0][] = [];
  refuse = false;

  async reserve(request: Parameters<Metering['reserve']>[0]) {
    if (this.refuse) throw forbidden('Not enough quota.');
    this.reserved.push(request);
    return {
      jobId: request.jobId,
      day: '2026-03-01',
      month: '2026-03',
      fromAllowance: request.mappings,
      fromCredits: 0,
      reservedAt: T0.toISOString(),
      status: 'reserved' as const,
    };
  }

  async settle(request: Parameters<Metering['settle']>[0]) {
    this.settled.push(request);
    return { processed: request.processed, allowanceUsed: request.processed, creditsUsed: 0, allowanceRefund: 0, creditsRefund: 0 };
  }
}

class ChunkQueue implements Queue<ChunkMessage> {
  readonly sent: ChunkMessage[] = [];
  unavailable = false;
  async send(message: ChunkMessage): Promise<void> {
    this.sent.push(message);
  }
  async sendAll(messages: readonly ChunkMessage[]): Promise<void> {
    if (this.unavailable) throw new Error('the queue is unavailable');
    this.sent.push(...messages);
  }
}

class SchedulerInMemory implements Scheduler {
  readonly scheduled: ScheduledDelivery<unknown>[] = [];
  unavailable = false;
  async schedule<M>(delivery: ScheduledDelivery<M>): Promise<void> {
    if (this.unavailable) throw new Error('the scheduler is unavailable');
    this.scheduled.push(delivery);
  }
}

function inventory(overrides: Partial<PartnerInventory> = {}): PartnerInventory {
  return {
    id: 'inv-1',
    organizationId: 'org-1',
    name: 'list',
    status: 'READY',
    fileName: 'hotels.csv',
    format: 'csv',
    hotelCount: 4_001,
    rejectedCount: 0,
    rejectedSample: [],
    chunkCount: 3,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    ...overrides,
  };
}

const INVENTORY_UPLOADED_AT = '2026-02-27T08:00:00.000Z';
const reference = { artifactsId: 'ref-1', dataVersionId: 'dv-1', matchingIndexKey: 'indexes/ref-1' };
const hotelbeds = { id: 'sup-1', code: 'HOTELBEDS', name: 'Hotelbeds' };

function creation() {
  const jobs = new JobsInMemory();
  const metering = new MeteringInMemory();
  const chunks = new ChunkQueue();
  const scheduler = new SchedulerInMemory();
  const supplierQuestions: string[] = [];
  let answer: Awaited<ReturnType<SupplierLookup['connectedSupplier']>> = hotelbeds;
  const suppliers: SupplierLookup = {
    connectedSupplier: async (_organizationId, code) => {
      supplierQuestions.push(code);
      return answer;
    },
  };
  const ports: JobPorts = { jobs: jobs, metering, chunks, scheduler, clock: new ManualClock(T0), newId: () => 'job-1' };
  const create = (input: Partial<CreateJobInput> = {}) =>
    createMappingJob(ports, {
      organizationId: 'org-1',
      inventory: inventory(),
      partnerInventoryId: 'inv-1',
      requestedMode: undefined,
      defaultMode: undefined,
      reference,
      suppliers,
      ...input,
    });
  const nothingHappened = () => {
    assert.deepEqual(metering.reserved, []);
    assert.equal(jobs.jobs.size, 0);
    assert.deepEqual(chunks.sent, []);
    assert.deepEqual(scheduler.scheduled, []);
  };
  return {
    jobs,
    metering,
    chunks,
    scheduler,
    supplierQuestions,
    create,
    nothingHappened,
    answer: (value: typeof answer) => (answer = value),
  };
}

async function refused(attempt: Promise<unknown>, kind: FailureKind, message: string): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind);
    assert.equal(error.message, message);
    return true;
  });
}

describe('creating a mapping job', () => {
  it('reserves a mapping per valid row, stores the job PENDING with the reference pinned, and queues each chunk', async () => {
    const { jobs, metering, chunks, create } = creation();
    const job = await create();
    assert.equal(job.status, 'PENDING');
    assert.equal(job.mode, 'STANDARD');
    assert.equal(job.supplier, undefined);
    assert.deepEqual(job.reference, reference);
    assert.equal(job.chunkCount, 3);
    assert.deepEqual(job.counts, { total: 4_001, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
    assert.equal(job.createdAt, T0.toISOString());
    assert.equal(job.inventoryUploadedAt, inventory().createdAt, 'the book takes jobs in the order of their inventories');
    assert.deepEqual(metering.reserved, [{ organizationId: 'org-1', jobId: 'job-1', mappings: 4_001, supplier: undefined }]);
    assert.deepEqual(jobs.jobs.get('job-1'), job);
    assert.deepEqual(
      chunks.sent,
      [0, 1, 2].map((chunk) => ({ organizationId: 'org-1', mappingJobId: 'job-1', chunk })),
    );
  });

  it(`schedules its deadline ${JOB_DEADLINE_HOURS} hours on, on the deadline queue`, async () => {
    const { scheduler, create } = creation();
    await create();
    assert.deepEqual(scheduler.scheduled, [
      {
        name: 'mapping-deadline-job-1',
        at: new Date('2026-03-01T18:00:00Z'),
        queue: mappingDeadlineQueue,
        message: { organizationId: 'org-1', mappingJobId: 'job-1' },
      },
    ]);
  });

  it('runs in the mode asked for, else the organization’s default, else STANDARD', async () => {
    const modeOf = async (requestedMode: MappingMode | undefined, defaultMode: MappingMode | undefined) =>
      (await creation().create({ requestedMode, defaultMode, inventory: inventory({ supplierCode: 'HOTELBEDS' }) })).mode;
    assert.equal(await modeOf('HYBRID', 'ID_TO_ID'), 'HYBRID');
    assert.equal(await modeOf(undefined, 'ID_TO_ID'), 'ID_TO_ID');
    assert.equal(await modeOf(undefined, undefined), 'STANDARD');
  });

  it('matching by supplier code: names the connected supplier of the inventory, and reserves for it', async () => {
    const { metering, supplierQuestions, create } = creation();
    const job = await create({ requestedMode: 'ID_TO_ID', inventory: inventory({ supplierCode: 'HOTELBEDS' }) });
    assert.deepEqual(job.supplier, hotelbeds);
    assert.deepEqual(supplierQuestions, ['HOTELBEDS']);
    assert.deepEqual(metering.reserved[0]?.supplier, hotelbeds);
  });

  it('STANDARD mode never asks about suppliers, even for an inventory that names one', async () => {
    const { supplierQuestions, create } = creation();
    const job = await create({ requestedMode: 'STANDARD', inventory: inventory({ supplierCode: 'HOTELBEDS' }) });
    assert.equal(job.supplier, undefined);
    assert.deepEqual(supplierQuestions, []);
  });

  it('refuses, creating and reserving nothing, an inventory that is missing or not READY', async () => {
    const missing = creation();
    await refused(
      missing.create({ inventory: undefined, partnerInventoryId: 'inv-9' }),
      'not_found',
      'Your organization has no partner inventory inv-9.',
    );
    missing.nothingHappened();
    for (const status of ['UPLOADING', 'VALIDATING', 'FAILED'] as const) {
      const notReady = creation();
      await refused(
        notReady.create({ inventory: inventory({ status }) }),
        'invalid_input',
        `The partner inventory is ${status}; only a READY inventory can be mapped.`,
      );
      notReady.nothingHappened();
    }
  });

  it('refuses supplier-code matching without a usable supplier, creating and reserving nothing', async () => {
    const noCode = creation();
    await refused(
      noCode.create({ requestedMode: 'HYBRID' }),
      'invalid_input',
      'HYBRID mapping needs an inventory with a supplierCode; this one has none. Upload it with supplierCode, or use STANDARD.',
    );
    noCode.nothingHappened();
    const answers = {
      unknown: 'ID_TO_ID mapping: the supplier HOTELBEDS is not supported.',
      inactive: 'ID_TO_ID mapping: the supplier HOTELBEDS no longer takes connections.',
      not_connected: 'ID_TO_ID mapping: your organization is not connected to HOTELBEDS. Connect it first.',
    } as const;
    for (const [answer, message] of Object.entries(answers)) {
      const setUp = creation();
      setUp.answer(answer as keyof typeof answers);
      await refused(
        setUp.create({ requestedMode: 'ID_TO_ID', inventory: inventory({ supplierCode: 'HOTELBEDS' }) }),
        'invalid_input',
        message,
      );
      setUp.nothingHappened();
    }
  });

  it('refuses when no reference is published yet, creating and reserving nothing', async () => {
    const setUp = creation();
    await refused(
      setUp.create({ reference: undefined }),
      'invalid_input',
      'No reference inventory is published yet: there is nothing to map against.',
    );
    setUp.nothingHappened();
  });

  it('creates nothing when the mappings cannot be reserved', async () => {
    const setUp = creation();
    setUp.metering.refuse = true;
    await assert.rejects(setUp.create(), (error: unknown) => error instanceof DomainError && error.kind === 'forbidden');
    setUp.nothingHappened();
  });

  it('releases the reservation when the job cannot be stored, and queues nothing', async () => {
    const { jobs, metering, chunks, scheduler, create } = creation();
    jobs.unavailable = true;
    await assert.rejects(create(), /the table is unavailable/);
    assert.equal(metering.reserved.length, 1);
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 0 }]);
    assert.deepEqual(chunks.sent, []);
    assert.deepEqual(scheduler.scheduled, []);
  });

  it('fails the stored job and releases its reservation when its deadline cannot be scheduled', async () => {
    const { jobs, metering, chunks, scheduler, create } = creation();
    scheduler.unavailable = true;
    await assert.rejects(create(), /the scheduler is unavailable/);
    assert.equal(jobs.jobs.get('job-1')?.status, 'FAILED');
    assert.equal(jobs.jobs.get('job-1')?.error, 'The job could not be queued; nothing was charged. Create it again.');
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 0 }]);
    assert.deepEqual(chunks.sent, []);
  });

  it('fails the stored job and releases its reservation when its chunks cannot be queued', async () => {
    const { jobs, metering, chunks, scheduler, create } = creation();
    chunks.unavailable = true;
    await assert.rejects(create(), /the queue is unavailable/);
    assert.equal(jobs.jobs.get('job-1')?.status, 'FAILED');
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 0 }]);
    // Its deadline, when it comes, finds the job failed and does nothing more.
    assert.equal(scheduler.scheduled.length, 1);
  });
});

// --- running ------------------------------------------------------------------------------------

const index = buildMatchingIndex([
  {
    id: 'lutetia',
    name: 'Hotel Lutetia',
    address: '45 Boulevard Raspail',
    postalCode: '75006',
    city: 'Paris',
    country: 'France',
    lat: 48.8511,
    lon: 2.3271,
    supplierCodes: {},
  },
  {
    id: 'adlon',
    name: 'Hotel Adlon Kempinski',
    address: 'Unter den Linden 77',
    postalCode: '10117',
    city: 'Berlin',
    country: 'Germany',
    lat: 52.5163,
    lon: 13.3806,
    supplierCodes: {},
  },
  ...Array.from({ length: 40 }, (_, i) => ({
    id: `filler-${i}`,
    name: `Hotel ${['Garden', 'Royal', 'Central', 'Park'][i % 4]} ${i}`,
    city: 'Paris',
    country: 'FR',
    lat: 48.85 + i / 1000,
    lon: 2.3 + i / 1000,
    supplierCodes: {},
  })),
]);

/** The inventory's chunks of rows: the Lutetia and a hotel that is nowhere, then the Adlon. */
const CHUNK_ROWS: PartnerHotel[][] = [
  [
    {
      id: 'p1',
      name: 'Hotel Lutetia',
      address: '45 Boulevard Raspail',
      postalCode: '75006',
      city: 'Paris',
      country: 'FR',
      lat: 48.8511,
      lon: 2.3271,
    },
    { id: 'p2', name: 'Qwxz Zyvv Lodge', city: 'Ushuaia', country: 'AR', lat: -54.8019, lon: -68.303 },
  ],
  [
    {
      id: 'p3',
      name: 'Hotel Adlon Kempinski',
      address: 'Unter den Linden 77',
      postalCode: '10117',
      city: 'Berlin',
      country: 'DE',
      lat: 52.5163,
      lon: 13.3806,
    },
  ],
];

/** A job of two chunks; `held`: the engine's answers the mapping book holds, by partner id. */
function running(status: JobStatus = 'PENDING', held = new Map<string, EngineAnswer>()) {
  const jobs = new JobsInMemory();
  const metering = new MeteringInMemory();
  const clock = new ManualClock(T0);
  const files = jobs.files;
  const rowsRead: number[] = [];
  const bookWritesStarted: unknown[] = [];
  const indexLoads = { count: 0 };
  const views = new Map<string, Buffer>();
  const finishing: ChunkMessage[] = [];
  let inventoryDeleted = false;
  const job: MappingJob = {
    id: 'job-1',
    organizationId: 'org-1',
    partnerInventoryId: 'inv-1',
    mode: 'STANDARD',
    status,
    reference,
    chunkCount: 2,
    counts: { total: 3, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 },
    inventoryUploadedAt: INVENTORY_UPLOADED_AT,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
  };
  jobs.jobs.set(job.id, job);
  const ports: ChunkPorts = {
    jobs: jobs,
    metering,
    clock,
    rows: async (_job, chunk) => {
      rowsRead.push(chunk);
      return inventoryDeleted ? undefined : CHUNK_ROWS[chunk];
    },
    index: async () => {
      indexLoads.count++;
      return index;
    },
    heldAnswers: async (_job, ids) => ids.map((id) => held.get(id.partnerHotelId)),
    putResultsFile: (key, text) => jobs.putResultsFile(key, text),
    readResultsFile: async (key) => files.get(key),
    views: {
      get: async (key, range) => {
        const bytes = views.get(key);
        return range ? bytes?.subarray(range.start, range.start + range.length) : bytes;
      },
      put: async (key, body) => void views.set(key, Buffer.from(body)),
    },
    finishing: { sendAll: async (messages) => void finishing.push(...messages) },
    finishingSizes: DEFAULT_FINISHING_SIZES,
    bookWrites: { send: async (message) => void bookWritesStarted.push(message) },
    completionListened: async () => false,
  };
  /** A chunk delivered, then the finishing stage's messages it leads to, as the queue would deliver them. */
  const deliver = async (chunk: number) => {
    clock.advance(1_000);
    await runChunkMessage(ports, { organizationId: 'org-1', mappingJobId: 'job-1', chunk });
    while (finishing.length > 0) await runChunkMessage(ports, finishing.shift()!);
  };
  return {
    jobs,
    metering,
    clock,
    files,
    rowsRead,
    bookWritesStarted,
    deliver,
    ports,
    indexLoads,
    current: () => jobs.jobs.get('job-1')!,
    deleteInventory: () => (inventoryDeleted = true),
  };
}

describe('running a mapping job, chunk by chunk', () => {
  it('starts the job with its first chunk, and keeps each chunk’s results in a file', async () => {
    const { jobs, files, deliver, current } = running();
    await deliver(0);
    assert.equal(current().status, 'RUNNING');
    assert.equal(current().startedAt, '2026-03-01T12:00:01.000Z');
    assert.deepEqual(current().counts, { total: 3, processed: 2, matched: 1, review: 0, unmatched: 1, unchanged: 0 });
    assert.deepEqual([...jobs.results.keys()], ['p1', 'p2']);
    assert.equal(jobs.results.get('p1')?.referenceHotelId, 'lutetia');
    assert.equal(jobs.results.get('p2')?.status, 'UNMATCHED');
    const file = files.get(jobObjects.results({ organizationId: 'org-1', id: 'job-1' }, 0))!;
    assert.deepEqual(
      file.split('\n').map((line) => (JSON.parse(line) as MappingResult).partnerHotelId),
      ['p1', 'p2'],
    );
  });

  it('answers a row from the book where the book holds its answer of the same basis: no index loaded for it, counted unchanged, not charged', async () => {
    const first = running();
    await first.deliver(0);
    await first.deliver(1);
    const answers = [...first.jobs.results.values()].map((result): [string, EngineAnswer] => [result.partnerHotelId, result]);
    assert.ok(
      answers.every(([, answer]) => typeof answer.basis === 'string'),
      'each result keeps its basis',
    );

    const again = running('PENDING', new Map(answers));
    await again.deliver(0);
    await again.deliver(1);
    assert.equal(again.indexLoads.count, 0, 'every row answered from the book');
    assert.deepEqual(again.current().counts, { total: 3, processed: 3, matched: 2, review: 0, unmatched: 1, unchanged: 3 });
    assert.deepEqual(
      [...again.jobs.results.values()].map(({ unchanged: _unchanged, ...result }) => result),
      [...first.jobs.results.values()],
    );
    assert.deepEqual(again.metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 0 }]);

    // Another basis (the row as mapped in another mode, or against another publication): the engine answers it, charged.
    const other = running('PENDING', new Map(answers.map(([id, answer]) => [id, id === 'p3' ? { ...answer, basis: 'another' } : answer])));
    await other.deliver(0);
    await other.deliver(1);
    assert.equal(other.indexLoads.count, 1);
    assert.equal(other.current().counts.unchanged, 2);
    assert.deepEqual(other.metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 1 }]);
  });

  it('counts a chunk delivered twice once', async () => {
    const { deliver, current, rowsRead } = running();
    await deliver(0);
    await deliver(0);
    assert.deepEqual(current().counts, { total: 3, processed: 2, matched: 1, review: 0, unmatched: 1, unchanged: 0 });
    assert.deepEqual(rowsRead, [0], 'the second delivery maps nothing');
  });

  it('completes with its last chunk: one MAPPING_COMPLETED, the processed rows settled, its write into the mapping book started', async () => {
    const { jobs, metering, deliver, current, bookWritesStarted } = running();
    await deliver(1);
    assert.equal(current().status, 'RUNNING');
    assert.deepEqual(metering.settled, []);
    assert.deepEqual(bookWritesStarted, []);
    await deliver(0);
    assert.equal(current().status, 'COMPLETED');
    assert.equal(current().completedAt, '2026-03-01T12:00:02.000Z');
    assert.deepEqual(current().counts, { total: 3, processed: 3, matched: 2, review: 0, unmatched: 1, unchanged: 0 });
    assert.equal(jobs.events.length, 1);
    assert.deepEqual(jobs.events[0], {
      id: 'job-1-completed',
      type: 'MAPPING_COMPLETED',
      organizationId: 'org-1',
      occurredAt: '2026-03-01T12:00:02.000Z',
      data: {
        mappingJobId: 'job-1',
        partnerInventoryId: 'inv-1',
        mode: 'STANDARD',
        status: 'COMPLETED',
        counts: { total: 3, processed: 3, matched: 2, review: 0, unmatched: 1, unchanged: 0 },
        createdAt: T0.toISOString(),
        completedAt: '2026-03-01T12:00:02.000Z',
        // Nobody listens (no destination, no webhook): no file is written for it.
        export: null,
        deliveries: [],
      },
    });
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 3 }]);
    assert.deepEqual(bookWritesStarted, [
      { organizationId: 'org-1', mappingJobId: 'job-1', partial: false, listedAt: INVENTORY_UPLOADED_AT, changedRows: 3 },
    ]);
  });

  it('after completing, a repeated delivery only settles again, with the same count, and records no second event', async () => {
    const { jobs, metering, deliver, current, rowsRead } = running();
    await deliver(0);
    await deliver(1);
    const completed = current();
    await deliver(1);
    await deliver(0);
    assert.equal(jobs.events.length, 1);
    assert.deepEqual(current(), completed);
    assert.deepEqual(rowsRead, [0, 1]);
    assert.deepEqual(
      metering.settled.map((settlement) => settlement.processed),
      [3, 3, 3],
    );
  });

  it('repeats a delivery that died before counting its chunk, and counts it then', async () => {
    const { jobs, deliver, current } = running();
    jobs.dieOnce.add('putResultsFile');
    await assert.rejects(deliver(0), /the delivery died/);
    assert.deepEqual(current().counts, { total: 3, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
    assert.equal(current().doneChunks, undefined);
    await deliver(0);
    assert.deepEqual(current().counts, { total: 3, processed: 2, matched: 1, review: 0, unmatched: 1, unchanged: 0 });
  });

  it('finishes a job whose last delivery died after counting, on the next delivery of any of its chunks', async () => {
    const { jobs, metering, deliver, current, rowsRead } = running();
    await deliver(0);
    jobs.dieOnce.add('complete');
    await assert.rejects(deliver(1), /the delivery died/);
    assert.equal(current().status, 'RUNNING');
    assert.equal(current().doneChunks?.size, 2);
    await deliver(0);
    assert.equal(current().status, 'COMPLETED');
    assert.equal(jobs.events.length, 1);
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 3 }]);
    assert.deepEqual(rowsRead, [0, 1], 'no chunk is mapped twice');
  });

  it('does nothing for a chunk of a job that failed or was cancelled', async () => {
    for (const status of ['FAILED', 'CANCELLED'] as const) {
      const { jobs, metering, deliver, current, rowsRead } = running(status);
      await deliver(0);
      assert.equal(current().status, status);
      assert.deepEqual(rowsRead, []);
      assert.equal(jobs.results.size, 0);
      assert.deepEqual(metering.settled, []);
    }
  });

  it('fails the job when the inventory is deleted while it runs, settling the rows it processed and releasing the rest', async () => {
    const { metering, deliver, current, deleteInventory } = running();
    await deliver(0);
    deleteInventory();
    await deliver(1);
    assert.equal(current().status, 'FAILED');
    assert.equal(current().error, 'The partner inventory was deleted while the job ran.');
    assert.equal(current().counts.processed, 2);
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 2 }]);
  });

  it('a chunk in flight when the job is cancelled writes rows it never counts: they stay unreadable and uncharged', async () => {
    const { jobs, metering, deliver, ports, current } = running();
    await deliver(0);
    // The partner cancels while chunk 1 is between writing its rows and counting them.
    const putResultsFile = jobs.putResultsFile.bind(jobs);
    jobs.putResultsFile = async (key, text) => {
      await putResultsFile(key, text);
      if (key.includes('/results/')) await cancelJob(ports, current());
    };
    await deliver(1);
    const cancelled = current();
    assert.equal(cancelled.status, 'CANCELLED');
    assert.deepEqual(cancelled.counts, { total: 3, processed: 2, matched: 1, review: 0, unmatched: 1, unchanged: 0 });
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 2 }]);
    assert.equal(jobs.results.size, 3, 'chunk 1 wrote its row');
    const readable = [...jobs.results.values()].filter((result) => isReadable(cancelled, result));
    assert.deepEqual(
      readable.map((result) => result.partnerHotelId),
      ['p1', 'p2'],
      'exactly the rows counted and charged',
    );
  });
});

describe('ending a job early', () => {
  it('cancelling a PENDING or RUNNING job that processed nothing cancels it and releases its whole reservation', async () => {
    for (const status of ['PENDING', 'RUNNING'] as const) {
      const { ports, metering, current } = running(status);
      const cancelled = await cancelJob(ports, current());
      assert.equal(cancelled.status, 'CANCELLED');
      assert.equal(current().status, 'CANCELLED');
      assert.equal(current().cancelledAt, T0.toISOString());
      assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 0 }]);
    }
  });

  it('cancelling a job after a chunk settles the rows it processed, which stay readable, and releases the rest', async () => {
    const { ports, metering, deliver, jobs, current } = running();
    await deliver(0);
    const cancelled = await cancelJob(ports, current());
    assert.equal(cancelled.counts.processed, 2);
    assert.deepEqual(metering.settled, [{ organizationId: 'org-1', jobId: 'job-1', processed: 2 }]);
    await deliver(1);
    assert.deepEqual(current().counts, cancelled.counts, 'the remaining chunk maps nothing');
    assert.deepEqual([...jobs.results.values()].filter((result) => isReadable(current(), result)).length, 2);
  });

  it('cancelling again answers the cancelled job, and settles the release again (it may have died between the two steps)', async () => {
    const { ports, metering, clock, current } = running('RUNNING');
    const first = await cancelJob(ports, current());
    clock.advance(60_000);
    const second = await cancelJob(ports, current());
    assert.deepEqual(second, first);
    assert.deepEqual(
      metering.settled.map((settlement) => settlement.processed),
      [0, 0],
    );
  });

  it('a job that completed or failed cannot be cancelled, and nothing is released', async () => {
    for (const status of ['COMPLETED', 'FAILED'] as const) {
      const { ports, metering, current } = running(status);
      await refused(cancelJob(ports, current()), 'conflict', `The job is ${status}; only a PENDING or RUNNING job can be cancelled.`);
      assert.equal(current().status, status);
      assert.deepEqual(metering.settled, []);
    }
  });

  it('cancelling answers the job as it is when a chunk completed it first', async () => {
    const { ports, metering, deliver, current } = running();
    const stale = current();
    await deliver(0);
    await deliver(1);
    await refused(cancelJob(ports, stale), 'conflict', 'The job is COMPLETED; only a PENDING or RUNNING job can be cancelled.');
    assert.deepEqual(
      metering.settled.map((settlement) => settlement.processed),
      [3],
    );
  });

  it('failing a job records why and settles what it processed (nothing here); failing it again changes nothing more', async () => {
    const { ports, metering, clock, current } = running('RUNNING');
    await failJob(ports, { organizationId: 'org-1', id: 'job-1' }, 'Rows 1 to 2000 could not be mapped.');
    const failed = current();
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.error, 'Rows 1 to 2000 could not be mapped.');
    clock.advance(60_000);
    await failJob(ports, { organizationId: 'org-1', id: 'job-1' }, 'The job did not finish within 6 hours.');
    assert.deepEqual(current(), failed);
    assert.deepEqual(
      metering.settled.map((settlement) => settlement.processed),
      [0, 0],
    );
  });

  it('failing a job that completed or was cancelled leaves it, and releases nothing', async () => {
    const completed = running('COMPLETED');
    await failJob(completed.ports, { organizationId: 'org-1', id: 'job-1' }, 'late deadline');
    assert.equal(completed.current().status, 'COMPLETED');
    assert.equal(completed.current().error, undefined);
    assert.deepEqual(completed.metering.settled, []);
    // A cancelled job was settled by the cancel itself.
    const cancelled = running('CANCELLED');
    await failJob(cancelled.ports, { organizationId: 'org-1', id: 'job-1' }, 'late deadline');
    assert.equal(cancelled.current().status, 'CANCELLED');
    assert.deepEqual(cancelled.metering.settled, []);
  });
});
