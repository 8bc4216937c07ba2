import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimiter } from './suppliers';
import { service } from '../platform/runtime';
import { organizationPartition, isConditionFailure, tableOf, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  rateWindow: (organizationId: string, bucket: string, windowStart: number) => ({
    PK: organizationPartition(organizationId),
    SK: `RATE#${bucket}#${windowStart}`,
  }),
} as const;

/**
 * Fixed-window counters, one item per organization, bucket and window; a conditional update
 * makes concurrent calls count exactly, and the TTL attribute clears old windows.
 */
export class RateLimitStore implements RateLimiter {
  constructor(private readonly table: Table) {}

  async tryConsume(
    organizationId: string,
    rule: { bucket: string; limit: number; windowSeconds: number },
    now: Date,
  ): Promise<boolean> {
    const windowStart = Math.floor(now.getTime() / 1000 / rule.windowSeconds) * rule.windowSeconds;
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.rateWindow(organizationId, rule.bucket, windowStart),
          UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, expiresAt = :expiresAt',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':limit': rule.limit,
            ':expiresAt': windowStart + rule.windowSeconds * 2,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

export const rateLimitStoreOf = /* @__PURE__ */ service((runtime) => new RateLimitStore(tableOf(runtime)));
