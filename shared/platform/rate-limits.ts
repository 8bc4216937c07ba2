/** Per-organization rate limits: fixed windows counted in the table. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { defineSettings, type AppConfig } from './config';
import { ORGANIZATION_REQUESTS_PER_SECOND } from './http/route';
import { service } from './runtime';
import { organizationPartition, isConditionFailure, tableOf, type Table } from './table';

export interface RateRule {
  /** The limit's name, part of its counter's key. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one call; false when the window's limit is already used up. */
  tryConsume(organizationId: string, rule: RateRule, now: Date): Promise<boolean>;
}

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
    rule: RateRule,
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

export const rateLimiterOf = /* @__PURE__ */ service((runtime): RateLimiter => new RateLimitStore(tableOf(runtime)));

/** The deployment may set another share (a benchmark's load, a test's small one). */
export const ORGANIZATION_RATE_SETTINGS = defineSettings({ requestsPerSecond: 'ORGANIZATION_REQUESTS_PER_SECOND' });

const REQUESTS_BUCKET = 'requests';

/** Whether a table item is an organization's count of its requests in a second: bookkeeping, no partner's data. */
export const isRequestCount = (item: Record<string, unknown>) => String(item.SK).startsWith(`RATE#${REQUESTS_BUCKET}#`);

/** The rule every credentialed request is counted under: one conditional write per credentialed request. */
export function organizationRequestRule(config: Pick<AppConfig, 'variables'>): RateRule {
  const setting = ORGANIZATION_RATE_SETTINGS.read(config).requestsPerSecond;
  if (setting !== undefined && !/^[1-9]\d*$/.test(setting)) {
    throw new Error(`${ORGANIZATION_RATE_SETTINGS.variables.requestsPerSecond} must be a whole number of requests a second, not "${setting}".`);
  }
  return { bucket: REQUESTS_BUCKET, limit: setting === undefined ? ORGANIZATION_REQUESTS_PER_SECOND : Number(setting), windowSeconds: 1 };
}
