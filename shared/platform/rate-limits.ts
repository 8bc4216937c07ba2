/** Per-organization rate limits: fixed windows counted in the table. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { defineSettings, type AppConfig } from './config';
import { functionName, ORGANIZATION_REQUESTS_PER_SECOND, organizationShareOfRoute, type RouteDefinition } from './http/route';
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

  async tryConsume(organizationId: string, rule: RateRule, now: Date): Promise<boolean> {
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

/** The deployment may set another share (a benchmark's load, a test's small one); each route's share scales with it. */
export const ORGANIZATION_RATE_SETTINGS = defineSettings({ requestsPerSecond: 'ORGANIZATION_REQUESTS_PER_SECOND' });

const REQUESTS_BUCKET = 'requests';

/** Whether a table item is an organization's count of its requests in a second: bookkeeping, no partner's data. */
export const isRequestCount = (item: Record<string, unknown>) => String(item.SK).startsWith(`RATE#${REQUESTS_BUCKET}#`);

/** What one organization may send a second: over all its routes, and of the route asked when it has a throttle of its own. */
export interface RequestShares {
  perSecond: number;
  route?: { name: string; perSecond: number };
}

/** The shares a credentialed request of this route is counted under. */
export function organizationRequestShares(
  route: Pick<RouteDefinition, 'handler' | 'throttle'>,
  config: Pick<AppConfig, 'variables'>,
): RequestShares {
  const setting = ORGANIZATION_RATE_SETTINGS.read(config).requestsPerSecond;
  if (setting !== undefined && !/^[1-9]\d*$/.test(setting)) {
    throw new Error(
      `${ORGANIZATION_RATE_SETTINGS.variables.requestsPerSecond} must be a whole number of requests a second, not "${setting}".`,
    );
  }
  const perSecond = setting === undefined ? ORGANIZATION_REQUESTS_PER_SECOND : Number(setting);
  if (!route.throttle) return { perSecond };
  const routeShare = Math.max(1, Math.floor((organizationShareOfRoute(route.throttle) * perSecond) / ORGANIZATION_REQUESTS_PER_SECOND));
  return { perSecond, route: { name: functionName(route), perSecond: routeShare } };
}

/** Which share a refused request was past. */
export type RequestRefusal = 'organization' | 'route';

/**
 * Counts an organization's requests a second, in total and per throttled route, in one item per
 * organization and second: one conditional write per credentialed request, exact under concurrency.
 */
export async function countRequest(
  table: Table,
  organizationId: string,
  shares: RequestShares,
  now: Date,
): Promise<RequestRefusal | undefined> {
  const second = Math.floor(now.getTime() / 1000);
  const { route } = shares;
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.rateWindow(organizationId, REQUESTS_BUCKET, second),
        UpdateExpression: `SET #count = if_not_exists(#count, :zero) + :one, expiresAt = :expiresAt${route ? ', #route = if_not_exists(#route, :zero) + :one' : ''}`,
        ConditionExpression: `(attribute_not_exists(#count) OR #count < :limit)${route ? ' AND (attribute_not_exists(#route) OR #route < :routeLimit)' : ''}`,
        ExpressionAttributeNames: { '#count': 'count', ...(route && { '#route': `route:${route.name}` }) },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ':limit': shares.perSecond,
          ':expiresAt': second + 2,
          ...(route && { ':routeLimit': route.perSecond }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The failed condition's item, as DynamoDB sends it (the document client leaves errors marshalled).
    const counted = unmarshall((error as { Item?: Record<string, AttributeValue> }).Item ?? {});
    return Number(counted.count ?? 0) >= shares.perSecond ? 'organization' : 'route';
  }
}
