/**
 * The export a worker prepares for a large job: one table item per job, beside its results
 * (`JOB#<jobId>` / `EXPORT`). It holds the one export of the job being prepared or ready, and the
 * job's decisions version, which every review raises in its own transaction, so an export made
 * before a review is known to be outdated.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { service } from '../platform/runtime';
import { tableOf, writtenIf, type Table, type TransactItem } from '../platform/table';
import type { ResolvedExportFormat } from '../export-format';

/** A written export file. */
export interface ExportFile {
  key: string;
  rowCount: number;
  contentType: string;
  sizeBytes: number;
}

const keyOf = (jobId: string) => ({ PK: `JOB#${jobId}`, SK: 'EXPORT' });

export interface PreparedExport {
  id: string;
  status: 'PREPARING' | 'READY';
  /** The format it is written in: the saved one when it was asked for. */
  format: ResolvedExportFormat;
  /** The job's decisions version when it was asked for. */
  decisionsVersion: number;
  requestedAt: string;
  /** READY: the file written. */
  file?: ExportFile & { readyAt: string };
}

export interface ExportState {
  /** Raised by every review of the job's rows; 0 before the first. */
  decisionsVersion: number;
  current?: PreparedExport;
}

export class ExportStore {
  constructor(private readonly table: Table) {}

  async get(jobId: string): Promise<ExportState> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keyOf(jobId), ConsistentRead: true }));
    return { decisionsVersion: (Item?.decisionsVersion as number | undefined) ?? 0, current: Item?.current as PreparedExport | undefined };
  }

  /**
   * Takes the job's export for a new one, only if it is still the one read (`seenId`, or none):
   * of two requests that read the same state, one wins and the other is told so (false).
   */
  async claim(jobId: string, next: PreparedExport, seenId: string | undefined): Promise<boolean> {
    return this.updateIf(jobId, {
      UpdateExpression: 'SET #current = :next',
      ConditionExpression: seenId === undefined ? 'attribute_not_exists(#current)' : '#current.#id = :seenId',
      ExpressionAttributeNames: { '#current': 'current', ...(seenId !== undefined && { '#id': 'id' }) },
      ExpressionAttributeValues: { ':next': next, ...(seenId !== undefined && { ':seenId': seenId }) },
    });
  }

  /** Gives a claimed export up (its message could not be sent), unless another request has replaced it. */
  async release(jobId: string, exportId: string): Promise<void> {
    await this.updateIf(jobId, {
      UpdateExpression: 'REMOVE #current',
      ConditionExpression: '#current.#id = :id',
      ExpressionAttributeNames: { '#current': 'current', '#id': 'id' },
      ExpressionAttributeValues: { ':id': exportId },
    });
  }

  /** PREPARING -> READY with its file; false when the export was replaced or is ready already. */
  markReady(jobId: string, exportId: string, file: NonNullable<PreparedExport['file']>): Promise<boolean> {
    return this.updateIf(jobId, {
      UpdateExpression: 'SET #current.#status = :ready, #current.#file = :file',
      ConditionExpression: '#current.#id = :id AND #current.#status = :preparing',
      ExpressionAttributeNames: { '#current': 'current', '#id': 'id', '#status': 'status', '#file': 'file' },
      ExpressionAttributeValues: { ':id': exportId, ':ready': 'READY', ':preparing': 'PREPARING', ':file': file },
    });
  }

  private async updateIf(
    jobId: string,
    update: Pick<
      ConstructorParameters<typeof UpdateCommand>[0],
      'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
    >,
  ): Promise<boolean> {
    return writtenIf(this.table.client.send(new UpdateCommand({ TableName: this.table.name, Key: keyOf(jobId), ...update })));
  }
}

/** The write a review adds to its transaction: every export asked for before it is outdated. */
export function decisionRecorded(table: Table, jobId: string): TransactItem {
  return {
    Update: {
      TableName: table.name,
      Key: keyOf(jobId),
      UpdateExpression: 'ADD decisionsVersion :one',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

export const exportStoreOf = /* @__PURE__ */ service((runtime) => new ExportStore(tableOf(runtime)));
