import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { MappingMode, MappingResult, ScoreOrder } from '../mapping';
import type { DomainEvent } from '../platform/events/events';
import { eventPut, messagePut } from '../platform/events/outbox';
import { service } from '../platform/runtime';
import {
  batchGet,
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
  type TransactItem,
} from '../platform/table';
import { decisionRecorded } from './export-store';
import { mappingExportQueue, type CompletionMessage } from './queues';
import {
  resultsExpireAt,
  riskOf,
  type JobCounts,
  type JobStatus,
  type FinishingPlan,
  type FinishingState,
  type MappingJob,
  type ScoreFigures,
  type StoredResult,
} from './job';

/** Keys of this store's items in the single table. */
const keys = {
  preferences: (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'MAPPING_PREFERENCES' }),
  /** A person's decision on a row: the row as decided, found by partner id, and by its new place through GSI1. */
  decision: (jobId: string, partnerHotelId: string) => ({ PK: `JOB#${jobId}`, SK: `DECISION#${partnerHotelId}` }),
  /** Apart from the job's item, which every count and decision writes again: its sets grow with the job. */
  finishing: (jobId: string) => ({ PK: `JOB#${jobId}`, SK: 'FINISHING' }),
  decisionPrefix: 'DECISION#',
  /**
   * Where the engine had put a decided row (its status-and-method partition and sort key), so that a
   * read of that partition's files leaves the row out: it is shown where the decision put it.
   */
  decided: (jobId: string, enginePartition: string, sortKey: string) => ({ PK: `JOB#${jobId}#DECIDED#${enginePartition}`, SK: sortKey }),
} as const;

/** The job count a result of each status is counted in. */
const COUNT_OF_STATUS = { MATCHED: 'matched', REVIEW: 'review', UNMATCHED: 'unmatched' } as const satisfies Record<
  MappingResult['status'],
  keyof JobCounts
>;

/** A status-and-method partition of a job's results, named as `STATUS#METHOD` (`NONE` for no method). */
export function partitionName(status: string, method: string | null): string {
  return `${status}#${method ?? 'NONE'}`;
}

/** GSI1 of a result: one partition per status and method, sorted by score, so every filter is a Query. */
export function resultPartition(jobId: string, status: string, method: string | null): string {
  return `JOB#${jobId}#${partitionName(status, method)}`;
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

/** A decision as stored: the row as decided, under its new status-and-method partition, gone with the job's results. */
function decisionItem(job: Pick<MappingJob, 'id' | 'createdAt'>, result: StoredResult): Record<string, unknown> {
  return {
    ...keys.decision(job.id, result.partnerHotelId),
    GSI1PK: resultPartition(job.id, result.status, result.method),
    GSI1SK: resultSortKey(result.score, result.partnerHotelId),
    ...result,
    [TABLE_KEYS.ttlAttribute]: Math.floor(resultsExpireAt(job).getTime() / 1000),
  };
}

function finishingOf(item: Record<string, NativeAttributeValue>): FinishingState {
  const { [TABLE_KEYS.ttlAttribute]: _expiresAt, ...state } = withoutKeys(item);
  return state as FinishingState;
}

function decisionOf(item: Record<string, NativeAttributeValue>): StoredResult {
  const { [TABLE_KEYS.ttlAttribute]: _expiresAt, ...result } = withoutKeys(item);
  return result as StoredResult;
}

/** The SET clauses of an update of the job's counts (`value` of each count's name), with their names and values. */
function countsUpdate(counts: Omit<JobCounts, 'total'>, value: (name: string) => string) {
  const names = Object.keys(counts);
  return {
    set: names.map((name) => `#counts.#${name} = ${value(name)}`).join(', '),
    names: Object.fromEntries<string>([['#counts', 'counts'], ...names.map((name): [string, string] => [`#${name}`, name])]),
    values: Object.fromEntries<number>(Object.entries(counts).map(([name, count]): [string, number] => [`:${name}`, count])),
  };
}

export interface ResultPage {
  results: StoredResult[];
  nextCursor: string | null;
}

/**
 * A decision's move between statuses; `engineRow`, the engine's row when a person first decides it
 * (`decided`) or when their decision is withdrawn.
 */
export interface DecisionMove {
  from: MappingResult['status'];
  to: MappingResult['status'];
  engineRow?: { row: Pick<StoredResult, 'status' | 'score'>; decided: boolean };
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
    const update = countsUpdate(counts, (name) => `#counts.#${name} + :${name}`);
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.jobs.key(job.organizationId, job.id),
          UpdateExpression: `SET ${update.set}, updatedAt = :now ADD doneChunks :chunk`,
          ConditionExpression: 'NOT contains(doneChunks, :chunkNumber) AND #status IN (:pending, :running)',
          ExpressionAttributeNames: { '#status': 'status', ...update.names },
          ExpressionAttributeValues: {
            ...update.values,
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

  /** Where the job's finishing stage stands, if it started. */
  async finishing(job: Pick<MappingJob, 'id'>): Promise<FinishingState | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.finishing(job.id), ConsistentRead: true }),
    );
    return Item && finishingOf(Item);
  }

  /** Fixes the finishing stage's plan, once (a plan fixed before stays); where the stage then stands. */
  async planFinishing(job: Pick<MappingJob, 'id' | 'createdAt'>, plan: FinishingPlan): Promise<FinishingState> {
    return this.updateFinishing(job, 'SET #plan = if_not_exists(#plan, :plan), #expiresAt = :expiresAt', {
      ':plan': plan,
      ':expiresAt': Math.floor(resultsExpireAt(job).getTime() / 1000),
    });
  }

  /** Fixes the partitions the finishing stage merges, once; answers them as fixed. */
  async planMerges(job: Pick<MappingJob, 'id' | 'createdAt'>, partitions: string[]): Promise<string[]> {
    return (
      (await this.updateFinishing(job, 'SET #plan.merges = if_not_exists(#plan.merges, :partitions)', { ':partitions': partitions })).plan
        .merges ?? partitions
    );
  }

  /** Counts a part of the finishing stage as done (a redelivered part counts once); where the stage then stands. */
  async finishingPartDone(
    job: Pick<MappingJob, 'id' | 'createdAt'>,
    stage: 'claims' | 'views' | 'scores',
    part: number | string,
  ): Promise<FinishingState> {
    const attribute = { claims: 'doneClaimParts', views: 'doneViewParts', scores: 'doneMerges' }[stage];
    return this.updateFinishing(job, `ADD ${attribute} :part`, { ':part': new Set([part]) });
  }

  private async updateFinishing(job: Pick<MappingJob, 'id'>, update: string, values: Record<string, unknown>): Promise<FinishingState> {
    const names = {
      ...(update.includes('#plan') && { '#plan': 'plan' }),
      ...(update.includes('#expiresAt') && { '#expiresAt': TABLE_KEYS.ttlAttribute }),
    };
    const { Attributes } = await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.finishing(job.id),
        UpdateExpression: update,
        ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return finishingOf(Attributes!);
  }

  /** Sets the counts and score figures of a RUNNING job (its results as the finishing stage left them); false when it is no longer running. */
  async setCounts(
    job: Pick<MappingJob, 'organizationId' | 'id'>,
    counts: Omit<JobCounts, 'total'>,
    scores?: ScoreFigures,
  ): Promise<boolean> {
    const update = countsUpdate(counts, (name) => `:${name}`);
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.jobs.key(job.organizationId, job.id),
          UpdateExpression: `SET ${update.set}${scores ? ', scores = :scores' : ''}`,
          ConditionExpression: '#status = :running',
          ExpressionAttributeNames: { '#status': 'status', ...update.names },
          ExpressionAttributeValues: { ...update.values, ':running': 'RUNNING', ...(scores && { ':scores': scores }) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * RUNNING -> COMPLETED, exactly once, with what tells it: its event, or the message that writes its
   * export file first (completion.ts); false when another delivery completed it first.
   */
  complete(job: MappingJob, now: string, told: { event: DomainEvent } | { exportFirst: CompletionMessage }): Promise<boolean> {
    const telling =
      'event' in told
        ? eventPut(this.table, told.event)
        : messagePut(this.table, mappingExportQueue, told.exportFirst, { id: `${job.id}-completion`, at: now });
    return this.transition(job, ['RUNNING'], { status: 'COMPLETED', completedAt: now, updatedAt: now }, [telling]);
  }

  /** Records an event on its own; the same event recorded again is the same item, told once. */
  async recordEvent(event: DomainEvent): Promise<void> {
    await transactWrite(this.table, [eventPut(this.table, event)]);
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

  // --- decisions -------------------------------------------------------------------------------

  /** The decision on a row, or undefined when no one has decided it. */
  async getDecision(jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.decision(jobId, partnerHotelId) }),
    );
    return Item ? decisionOf(Item) : undefined;
  }

  /** The decisions on these rows, in the order asked (undefined where none stands): one round trip for up to 100. */
  async decisionsOf(jobId: string, partnerHotelIds: readonly string[]): Promise<(StoredResult | undefined)[]> {
    const items = await batchGet(
      this.table,
      partnerHotelIds.map((id) => keys.decision(jobId, id)),
    );
    return items.map((item) => item && decisionOf(item));
  }

  /** The decisions on rows whose partner ids lie from `first` to `last`, both included, in UTF-8 byte order. */
  async decisionsBetween(jobId: string, first: string, last: string): Promise<StoredResult[]> {
    const items = await queryAll<Record<string, unknown>>(this.table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
      ExpressionAttributeValues: {
        ':pk': `JOB#${jobId}`,
        ':first': keys.decision(jobId, first).SK,
        ':last': keys.decision(jobId, last).SK,
      },
    });
    return items.map(decisionOf);
  }

  /** The partner ids of decided rows that the engine had put in this partition with sort keys from `lowest` to `highest`. */
  async decidedBetween(jobId: string, enginePartition: string, lowest: string, highest: string): Promise<Set<string>> {
    const items = await queryAll<{ partnerHotelId: string }>(this.table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lowest AND :highest',
      ExpressionAttributeValues: { ':pk': keys.decided(jobId, enginePartition, '').PK, ':lowest': lowest, ':highest': highest },
      ProjectionExpression: 'partnerHotelId',
    });
    return new Set(items.map((item) => item.partnerHotelId));
  }

  /** Decided rows of one status-and-method partition (MANUAL ones), best score first, with sort keys from `lowest` up to `highest`. */
  async decisionsOfPartition(
    partition: string,
    lowest: string,
    highest: string,
    limit: number,
    order: ScoreOrder = 'DESC',
  ): Promise<(StoredResult & { sortKey: string })[]> {
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :lowest AND :highest',
        ExpressionAttributeValues: { ':pk': partition, ':lowest': lowest, ':highest': highest },
        ScanIndexForward: order === 'ASC',
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => ({ ...decisionOf(item), sortKey: item.GSI1SK as string }));
  }

  /**
   * A person's decision on a row, the writes of its own: the decision (only if the row is still as
   * it was read), on a first decision the mark that hides the engine's row, and its event. The job's
   * writes (`decisionsCounted`) go with them in the transaction.
   */
  decisionWrites(
    job: Pick<MappingJob, 'organizationId' | 'id' | 'createdAt'>,
    read: StoredResult,
    updated: StoredResult,
    event: DomainEvent,
  ): TransactItem[] {
    return [
      {
        Put: {
          TableName: this.table.name,
          Item: decisionItem(job, updated),
          ConditionExpression: read.review ? '#status = :readStatus AND #review.#decidedAt = :readDecidedAt' : 'attribute_not_exists(PK)',
          ...(read.review && {
            ExpressionAttributeNames: { '#status': 'status', '#review': 'review', '#decidedAt': 'decidedAt' },
            ExpressionAttributeValues: { ':readStatus': read.status, ':readDecidedAt': read.review.decidedAt },
          }),
        },
      },
      ...(read.review
        ? []
        : [
            {
              Put: {
                TableName: this.table.name,
                Item: {
                  ...keys.decided(job.id, partitionName(read.status, read.method), resultSortKey(read.score, read.partnerHotelId)),
                  partnerHotelId: read.partnerHotelId,
                  [TABLE_KEYS.ttlAttribute]: Math.floor(resultsExpireAt(job).getTime() / 1000),
                },
              },
            },
          ]),
      eventPut(this.table, event),
    ];
  }

  /**
   * The writes of its own that take a decision back: its item (only if the row is still as it was
   * read) and the mark that hid the engine's row, so the engine's row shows again; and its event.
   */
  withdrawalWrites(
    job: Pick<MappingJob, 'organizationId' | 'id'>,
    read: StoredResult,
    engine: StoredResult,
    event: DomainEvent,
  ): TransactItem[] {
    return [
      {
        Delete: {
          TableName: this.table.name,
          Key: keys.decision(job.id, read.partnerHotelId),
          ConditionExpression: '#review.#decidedAt = :readDecidedAt',
          ExpressionAttributeNames: { '#review': 'review', '#decidedAt': 'decidedAt' },
          ExpressionAttributeValues: { ':readDecidedAt': read.review!.decidedAt },
        },
      },
      {
        Delete: {
          TableName: this.table.name,
          Key: keys.decided(job.id, partitionName(engine.status, engine.method), resultSortKey(engine.score, engine.partnerHotelId)),
        },
      },
      eventPut(this.table, event),
    ];
  }

  /**
   * The job's writes for decisions committed together: exports asked for before them outdated
   * (export-store.ts), the counts moved from each row's old status to its new one, and, on a job with
   * score figures, the wrong answers expected among undecided rows: less an engine row's risk when
   * a person first decides it, more again when the decision is withdrawn.
   */
  decisionsCounted(job: Pick<MappingJob, 'organizationId' | 'id' | 'scores'>, moves: readonly DecisionMove[]): TransactItem[] {
    if (moves.length === 0) return [];
    const net = new Map<string, number>();
    const risk = new Map<MappingResult['status'], number>();
    for (const { from, to, engineRow } of moves) {
      net.set(COUNT_OF_STATUS[from], (net.get(COUNT_OF_STATUS[from]) ?? 0) - 1);
      net.set(COUNT_OF_STATUS[to], (net.get(COUNT_OF_STATUS[to]) ?? 0) + 1);
      if (engineRow)
        risk.set(engineRow.row.status, (risk.get(engineRow.row.status) ?? 0) + (engineRow.decided ? -1 : 1) * riskOf(engineRow.row));
    }
    const counts = [...net].filter(([, by]) => by !== 0);
    const risks = job.scores ? [...risk].filter(([, by]) => by !== 0) : [];
    const sets = [
      ...counts.map((_, i) => `#counts.#c${i} = #counts.#c${i} + :c${i}`),
      ...risks.map((_, i) => `#scores.#expectedWrong.#r${i} = #scores.#expectedWrong.#r${i} + :r${i}`),
    ];
    return [
      decisionRecorded(this.table, job.id),
      ...(sets.length === 0
        ? []
        : [
            {
              Update: {
                TableName: this.table.name,
                Key: this.jobs.key(job.organizationId, job.id),
                UpdateExpression: `SET ${sets.join(', ')}`,
                ExpressionAttributeNames: {
                  ...(counts.length > 0 && { '#counts': 'counts', ...Object.fromEntries(counts.map(([count], i) => [`#c${i}`, count])) }),
                  ...(risks.length > 0 && {
                    '#scores': 'scores',
                    '#expectedWrong': 'expectedWrong',
                    ...Object.fromEntries(risks.map(([status], i) => [`#r${i}`, status])),
                  }),
                },
                ExpressionAttributeValues: {
                  ...Object.fromEntries(counts.map(([, by], i) => [`:c${i}`, by])),
                  ...Object.fromEntries(risks.map(([, by], i) => [`:r${i}`, Math.round(by * 1e6) / 1e6])),
                },
              },
            },
          ]),
    ];
  }

  /** Every reviewed row of the job. */
  async decisions(jobId: string): Promise<StoredResult[]> {
    const items = await queryAll<Record<string, unknown>>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `JOB#${jobId}`, ':prefix': keys.decisionPrefix },
    });
    return items.map(decisionOf);
  }
}

export const mappingJobStoreOf = /* @__PURE__ */ service((runtime) => new MappingJobStore(tableOf(runtime)));
