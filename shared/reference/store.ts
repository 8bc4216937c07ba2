import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { eventPut, messagePut } from '../platform/events/outbox';
import { referenceChangeMessages } from './queue';
import type { DomainEvent } from '../platform/events/events';
import type { CurrentReference, DuplicateReport, MergeRecord } from './inventory';
import { batchWrite, queryAll, TABLE_KEYS, transactWrite, withoutKeys, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  currentReference: { PK: 'REFERENCE', SK: 'CURRENT' },
  referenceHotel: (hotelId: string, dataVersionId: string) => ({
    PK: `REFHOTEL#${hotelId}`,
    SK: `VERSION#${dataVersionId}`,
  }),
  mergedHotel: (duplicateHotelId: string) => ({ PK: 'REFERENCE', SK: `MERGED#${duplicateHotelId}` }),
  duplicateReport: (reportId: string) => ({ PK: `DUPLICATE#${reportId}`, SK: 'REPORT' }),
  duplicateReportsOfOrganization: (organizationId: string) => `ORG#${organizationId}#DUPLICATES`,
} as const;

export class ReferenceStore {
  constructor(private readonly table: Table) {}

  /**
   * The current publication. Publishing reads it strongly consistent (the default); the search
   * path may read it eventually consistent: half the cost, and a new publication shows up within
   * about a second.
   */
  async getCurrent(options: { consistent?: boolean } = {}): Promise<CurrentReference | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.currentReference, ConsistentRead: options.consistent ?? true }),
    );
    return Item ? (withoutKeys(Item) as CurrentReference) : undefined;
  }

  /**
   * Makes `next` the current publication, only if the current one is still `expectedArtifactsId`
   * (undefined: none yet), and records for its followers that it was made (the outbox). False when
   * another publication won the race.
   */
  async publish(next: CurrentReference, expectedArtifactsId: string | undefined): Promise<boolean> {
    const failed = await transactWrite(this.table, [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.currentReference, ...next },
          ...(expectedArtifactsId
            ? { ConditionExpression: 'artifactsId = :expected', ExpressionAttributeValues: { ':expected': expectedArtifactsId } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
      messagePut(this.table, referenceChangeMessages, { artifactsId: next.artifactsId }, { id: next.artifactsId, at: next.publishedAt }),
    ]);
    return failed.length === 0;
  }

  /** Writes a data version's hotel records. */
  /** Deletes the table records of a data version imported before records moved to files. */
  deleteHotels(dataVersionId: string, hotelIds: readonly string[]): Promise<void> {
    return batchWrite(
      this.table,
      hotelIds.map((id) => ({ DeleteRequest: { Key: keys.referenceHotel(id, dataVersionId) } })),
    );
  }

  async getMerge(duplicateHotelId: string): Promise<MergeRecord | undefined> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.mergedHotel(duplicateHotelId) }));
    return Item ? (withoutKeys(Item) as MergeRecord) : undefined;
  }

  listMerges(): Promise<MergeRecord[]> {
    return queryAll<MergeRecord>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.currentReference.PK, ':prefix': 'MERGED#' },
    });
  }

  // --- duplicate reports -----------------------------------------------------------------------

  async createReport(report: DuplicateReport): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.duplicateReport(report.reportId),
          GSI1PK: keys.duplicateReportsOfOrganization(report.organizationId),
          GSI1SK: `${report.submittedAt}#${report.reportId}`,
          ...report,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async getReport(reportId: string): Promise<DuplicateReport | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.duplicateReport(reportId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as DuplicateReport) : undefined;
  }

  /** The organization's reports, newest first. */
  listReports(organizationId: string): Promise<DuplicateReport[]> {
    return queryAll<DuplicateReport>(this.table, {
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.duplicateReportsOfOrganization(organizationId) },
      ScanIndexForward: false,
    });
  }

  /**
   * Records a resolution while the report is still PENDING, with its event and, for a merge, the
   * merge, in one transaction. False when the report was already resolved.
   */
  async resolveReport(report: DuplicateReport, merge: MergeRecord | undefined, event: DomainEvent): Promise<boolean> {
    const failed = await transactWrite(this.table, [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.duplicateReport(report.reportId),
          UpdateExpression: 'SET #status = :status, resolution = :resolution',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': report.status, ':resolution': report.resolution, ':pending': 'PENDING' },
        },
      },
      ...(merge ? [{ Put: { TableName: this.table.name, Item: { ...keys.mergedHotel(merge.duplicateHotelId), ...merge } } }] : []),
      eventPut(this.table, event),
    ]);
    return failed.length === 0;
  }
}
