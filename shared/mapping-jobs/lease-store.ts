/** Row leases in the single table (leases.ts): one item per leased row, beside the job's decisions. */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { service } from '../platform/runtime';
import { isConditionFailure, queryAll, TABLE_KEYS, tableOf, type Table, type TransactItem } from '../platform/table';

/** A row's lease as it stands. */
export interface RowLease {
  partnerHotelId: string;
  holder: string;
  expiresAt: string;
}

const leaseKey = (jobId: string, partnerHotelId: string) => ({ PK: `JOB#${jobId}`, SK: `LEASE#${partnerHotelId}` });

export class RowLeaseStore {
  constructor(private readonly table: Table) {}

  /** Leases the row to `holder` until `until`, unless another holder's lease stands at `now`: the lease as it then stands. */
  async take(jobId: string, partnerHotelId: string, holder: string, now: Date, until: Date): Promise<RowLease> {
    const lease = { partnerHotelId, holder, expiresAt: until.toISOString() };
    // Stored as leasedUntil: the table's expiresAt is its TTL, which removes the item an hour after.
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...leaseKey(jobId, partnerHotelId),
            partnerHotelId,
            holder,
            leasedUntil: lease.expiresAt,
            [TABLE_KEYS.ttlAttribute]: Math.ceil(until.getTime() / 1000) + 3600,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR holder = :holder OR leasedUntil < :now',
          ExpressionAttributeValues: { ':holder': holder, ':now': now.toISOString() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return lease;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The lease that stands, as DynamoDB returned it (its attribute values, not unmarshalled, on an error).
      const held = (error as { Item?: Record<string, unknown> }).Item ?? {};
      const text = (value: unknown): string =>
        typeof value === 'object' && value !== null && 'S' in value ? (value as { S: string }).S : typeof value === 'string' ? value : '';
      return { partnerHotelId, holder: text(held.holder), expiresAt: text(held.leasedUntil) };
    }
  }

  /** The job's rows leased to `holder`, with when each lease ends (it may have ended). */
  async heldBy(jobId: string, holder: string): Promise<RowLease[]> {
    const held = await queryAll<{ partnerHotelId: string; leasedUntil: string }>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :lease)',
      FilterExpression: 'holder = :holder',
      ExpressionAttributeValues: { ':pk': `JOB#${jobId}`, ':lease': 'LEASE#', ':holder': holder },
      ProjectionExpression: 'partnerHotelId, leasedUntil',
    });
    return held.map((lease) => ({ partnerHotelId: lease.partnerHotelId, holder, expiresAt: lease.leasedUntil }));
  }

  /** Ends the holder's leases of these rows (another holder's stay). */
  async release(jobId: string, holder: string, partnerHotelIds: readonly string[]): Promise<void> {
    await Promise.all(
      partnerHotelIds.map(async (partnerHotelId) => {
        try {
          await this.table.client.send(
            new DeleteCommand({
              TableName: this.table.name,
              Key: leaseKey(jobId, partnerHotelId),
              ConditionExpression: 'holder = :holder',
              ExpressionAttributeValues: { ':holder': holder },
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
  }

  /** For a decision's transaction: the row is leased to no one else at `now` (`holder`, the decider's, if any). */
  freeFor(jobId: string, partnerHotelId: string, holder: string | undefined, now: string): TransactItem {
    return {
      ConditionCheck: {
        TableName: this.table.name,
        Key: leaseKey(jobId, partnerHotelId),
        ConditionExpression: `attribute_not_exists(PK) OR leasedUntil < :now${holder === undefined ? '' : ' OR holder = :holder'}`,
        ExpressionAttributeValues: { ':now': now, ...(holder !== undefined && { ':holder': holder }) },
      },
    };
  }
}

export const rowLeaseStoreOf = /* @__PURE__ */ service((runtime) => new RowLeaseStore(tableOf(runtime)));
