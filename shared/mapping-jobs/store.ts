import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MappingMode, MappingResult } from '../mapping';
import type { DomainEvent } from '../platform/events/events';
import { eventPut } from '../platform/events/outbox';
import { service } from '../platform/runtime';
import {
  batchWrite,
  decodeCursor,
  encodeCursor,
  isConditionFailure,
  organizationPartition,
  OwnedItems,
  queryAll,
  TABLE_KEYS,
  tableOf,
  transactWrite,
  transitionStatus,
  withoutKeys,
  type OwnedPage,
  type Table,
} from '../platform/table';
import { decisionRecorded } from './export-store';
import type { JobCounts, JobStatus, MappingJob, StoredResult } from './job';

/** Keys of this store's items in the single table. */
const keys = {
  preferences: (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'MAPPING_PREFERENCES' }),
  result: (jobId: string, partnerHotelId: string) => ({ PK: `JOB#${jobId}`, SK: `RESULT#${partnerHotelId}` }),
  resultPrefix: 'RESULT#',
  /** A reviewed row, kept apart too so that an export finds every decision with one small Query. */
  decision: (jobId: string, partnerHotelId: string) => ({ PK: `JOB#${jobId}`, SK: `DECISION#${partnerHotelId}` }),
  decisionPrefix: 'DECISION#',
} as const;

/** The job count a result of each status is counted in. */
const COUNT_OF_STATUS = { MATCHED: 'matched', REVIEW: 'review', UNMATCHED: 'unmatched' } as const satisfies Record<MappingResult['status'], keyof JobCounts>;

/** GSI1 of a result: one partition per status and method, sorted by score, so every filter is a Query. */
export function resultPartition(jobId: string, status: string, method: string | null): string {
  return `JOB#${jobId}#${status}#${method ?? 'NONE'}`;
}

/** Scores sort as text: 0.0000 .. 1.0000, then the partner id keeps keys unique. */
export function resultSortKey(score: number, partnerHotelId: string): string {
  return `${score.toFixed(4)}#${partnerHotelId}`;
}

/**
 * Above every sort key of this score, whatever the partner id: '$' follows '#'. (Not '\uffff':
 * DynamoDB compares UTF-8 bytes, in which an id starting beyond U+FFFF sorts after it.)
 */
export function resultSortKeyCeiling(score: number): string {
  return `${score.toFixed(4)}$`;
}

/** A sort key as DynamoDB orders it: by its UTF-8 bytes, not by JavaScript's UTF-16 code units. */
export function sortKeyBytes(sortKey: string): Buffer {
  return Buffer.from(sortKey, 'utf8');
}

function resultItem(jobId: string, result: StoredResult): Record<string, unknown> {
  return {
    ...keys.result(jobId, result.partnerHotelId),
    GSI1PK: resultPartition(jobId, result.status, result.method),
    GSI1SK: resultSortKey(result.score, result.partnerHotelId),
    ...result,
  };
}

export interface ResultPage {
  results: StoredResult[];
  nextCursor: string | null;
}

export class MappingJobStore {
  private readonly jobs: OwnedItems<MappingJob>;

  constructor(private readonly table: Table) {
    this.jobs = new OwnedItems(table, 'JOB', 'JOBS');
  }

  // --- jobs ------------------------------------------------------------------------------------

  create(job: MappingJob): Promise<void> {
    return this.jobs.create(job);
  }

  /** The organization's job; another organization's is answered as missing. */
  get(organizationId: string, jobId: string): Promise<MappingJob | undefined> {
    return this.jobs.get(organizationId, jobId);
  }

  /** Newest first. */
  list(organizationId: string, limit: number, cursor: string | undefined): Promise<OwnedPage<MappingJob>> {
    return this.jobs.list(organizationId, limit, cursor);
  }

  /** PENDING -> RUNNING when its first chunk starts; false when it is not PENDING. */
  markRunning(job: MappingJob, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING'], { status: 'RUNNING', startedAt: now, updatedAt: now });
  }

  /**
   * Counts one chunk's results, once: the job's set of done chunks decides it. Answers the job
   * afterwards, or undefined when the chunk was counted before or the job has ended.
   */
  async recordChunk(job: MappingJob, chunk: number, counts: Omit<JobCounts, 'total'>, now: string): Promise<MappingJob | undefined> {
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.jobs.key(job.organizationId, job.id),
          UpdateExpression:
            'SET #counts.#processed = #counts.#processed + :processed, #counts.#matched = #counts.#matched + :matched, ' +
            '#counts.#review = #counts.#review + :review, #counts.#unmatched = #counts.#unmatched + :unmatched, ' +
            'updatedAt = :now ADD doneChunks :chunk',
          ConditionExpression: 'NOT contains(doneChunks, :chunkNumber) AND #status IN (:pending, :running)',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#counts': 'counts',
            '#processed': 'processed',
            '#matched': 'matched',
            '#review': 'review',
            '#unmatched': 'unmatched',
          },
          ExpressionAttributeValues: {
            ':processed': counts.processed,
            ':matched': counts.matched,
            ':review': counts.review,
            ':unmatched': counts.unmatched,
            ':chunk': new Set([chunk]),
            ':chunkNumber': chunk,
            ':pending': 'PENDING',
            ':running': 'RUNNING',
            ':now': now,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return withoutKeys(Attributes!) as MappingJob;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /** Sets the counts of a RUNNING job (its results as the finishing stage left them); false when it is no longer running. */
  async setCounts(job: Pick<MappingJob, 'organizationId' | 'id'>, counts: Omit<JobCounts, 'total'>): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.jobs.key(job.organizationId, job.id),
          UpdateExpression: 'SET #counts.#processed = :processed, #counts.#matched = :matched, #counts.#review = :review, #counts.#unmatched = :unmatched',
          ConditionExpression: '#status = :running',
          ExpressionAttributeNames: { '#status': 'status', '#counts': 'counts', '#processed': 'processed', '#matched': 'matched', '#review': 'review', '#unmatched': 'unmatched' },
          ExpressionAttributeValues: { ':processed': counts.processed, ':matched': counts.matched, ':review': counts.review, ':unmatched': counts.unmatched, ':running': 'RUNNING' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** RUNNING -> COMPLETED with its event, exactly once: false when another delivery completed it first. */
  complete(job: MappingJob, now: string, event: DomainEvent): Promise<boolean> {
    return this.transition(job, ['RUNNING'], { status: 'COMPLETED', completedAt: now, updatedAt: now }, [eventPut(this.table, event)]);
  }

  /** PENDING or RUNNING -> FAILED with the reason; false when the job had already ended. */
  fail(job: Pick<MappingJob, 'organizationId' | 'id'>, error: string, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING', 'RUNNING'], { status: 'FAILED', failedAt: now, updatedAt: now, error });
  }

  /** PENDING or RUNNING -> CANCELLED; false when the job had already ended. */
  cancel(job: Pick<MappingJob, 'organizationId' | 'id'>, now: string): Promise<boolean> {
    return this.transition(job, ['PENDING', 'RUNNING'], { status: 'CANCELLED', cancelledAt: now, updatedAt: now });
  }

  private transition(
    job: Pick<MappingJob, 'organizationId' | 'id'>,
    from: readonly JobStatus[],
    changes: Partial<MappingJob>,
    alongside?: Parameters<typeof transitionStatus>[4],
  ): Promise<boolean> {
    return transitionStatus(this.table, this.jobs.key(job.organizationId, job.id), from, changes, alongside);
  }

  // --- preferences -----------------------------------------------------------------------------

  async defaultMode(organizationId: string): Promise<MappingMode | undefined> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.preferences(organizationId) }));
    return Item?.defaultMode as MappingMode | undefined;
  }

  async setDefaultMode(organizationId: string, defaultMode: MappingMode, now: string): Promise<void> {
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...keys.preferences(organizationId), defaultMode, updatedAt: now } }),
    );
  }

  // --- results ---------------------------------------------------------------------------------

  /** Writes a chunk's results; writing the same chunk again overwrites the same items. */
  putResults(jobId: string, chunk: number, results: readonly MappingResult[]): Promise<void> {
    return batchWrite(
      this.table,
      results.map((result) => ({ PutRequest: { Item: resultItem(jobId, { ...result, chunk }) } })),
    );
  }

  async getResult(jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.result(jobId, partnerHotelId) }),
    );
    return Item ? (withoutKeys(Item) as StoredResult) : undefined;
  }

  /** Results in partner id order, from a cursor of this list. */
  async resultsInOrder(jobId: string, limit: number, cursor: string | undefined): Promise<ResultPage> {
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `JOB#${jobId}`, ':prefix': keys.resultPrefix },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, { partition: { PK: `JOB#${jobId}` }, attributes: ['SK'] }),
      }),
    );
    return { results: (page.Items ?? []).map((item) => withoutKeys(item) as StoredResult), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /** One status-and-method partition, best score first, with sort keys from `lowest` up to `highest`. */
  async resultsOfPartition(partition: string, lowest: string, highest: string, limit: number): Promise<(StoredResult & { sortKey: string })[]> {
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :lowest AND :highest',
        ExpressionAttributeValues: { ':pk': partition, ':lowest': lowest, ':highest': highest },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => ({ ...(withoutKeys(item) as StoredResult), sortKey: item.GSI1SK as string }));
  }

  /**
   * Records a person's decision on a row, in one transaction: the row changes (only if it is still
   * as it was read), the decision is kept for exports, its event is recorded, the job's counts
   * move the row from its old status to its new one, and exports asked for before it become
   * outdated (export-store.ts). False when another decision changed the row meanwhile.
   */
  async decide(job: Pick<MappingJob, 'organizationId' | 'id'>, read: StoredResult, updated: StoredResult, event: DomainEvent): Promise<boolean> {
    const counted = COUNT_OF_STATUS[read.status] !== COUNT_OF_STATUS[updated.status];
    const failed = await transactWrite(this.table, [
      {
        Put: {
          TableName: this.table.name,
          Item: resultItem(job.id, updated),
          ConditionExpression: read.review
            ? '#status = :readStatus AND #review.#decidedAt = :readDecidedAt'
            : '#status = :readStatus AND attribute_not_exists(#review)',
          ExpressionAttributeNames: { '#status': 'status', '#review': 'review', ...(read.review && { '#decidedAt': 'decidedAt' }) },
          ExpressionAttributeValues: { ':readStatus': read.status, ...(read.review && { ':readDecidedAt': read.review.decidedAt }) },
        },
      },
      { Put: { TableName: this.table.name, Item: { ...keys.decision(job.id, updated.partnerHotelId), ...updated } } },
      eventPut(this.table, event),
      decisionRecorded(this.table, job.id),
      ...(counted
        ? [
            {
              Update: {
                TableName: this.table.name,
                Key: this.jobs.key(job.organizationId, job.id),
                UpdateExpression: 'SET #counts.#from = #counts.#from - :one, #counts.#to = #counts.#to + :one',
                ExpressionAttributeNames: { '#counts': 'counts', '#from': COUNT_OF_STATUS[read.status], '#to': COUNT_OF_STATUS[updated.status] },
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ]
        : []),
    ]);
    return failed.length === 0;
  }

  /** Every reviewed row of the job. */
  decisions(jobId: string): Promise<StoredResult[]> {
    return queryAll<StoredResult>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `JOB#${jobId}`, ':prefix': keys.decisionPrefix },
    });
  }
}

export const mappingJobStoreOf = /* @__PURE__ */ service((runtime) => new MappingJobStore(tableOf(runtime)));
