/**
 * The single DynamoDB table: its key attributes, the document client every store shares, and the
 * helpers they use. Each capability builds its own items' keys in its store; the README's "Table
 * keys" section lists them all in one place.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { requireSetting, type AppConfig } from './config';
import { invalidInput } from './errors';
import { service } from './runtime';

export const TABLE_KEYS = {
  partitionKey: 'PK',
  sortKey: 'SK',
  gsi1: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'expiresAt',
} as const;

/** Every organization's own items share its partition. */
export const organizationPartition = (organizationId: string) => `ORG#${organizationId}`;

export interface Table {
  client: DynamoDBDocumentClient;
  name: string;
}

export function createTable(config: Pick<AppConfig, 'tableName' | 'region' | 'dynamoDbEndpoint'>): Table {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamoDbEndpoint && {
      endpoint: config.dynamoDbEndpoint,
      // DynamoDB Local accepts any static credentials.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
  return {
    client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    name: requireSetting(config.tableName, 'TABLE_NAME'),
  };
}

/** The runtime's table client. */
export const tableOf = /* @__PURE__ */ service((runtime) => createTable(runtime.config));

/** Strips the key attributes so stored items can be returned as entities. */
export function withoutKeys<T extends Record<string, unknown>>(item: T): Omit<T, 'PK' | 'SK' | 'GSI1PK' | 'GSI1SK'> {
  const { PK: _pk, SK: _sk, GSI1PK: _g1pk, GSI1SK: _g1sk, ...rest } = item;
  return rest;
}

/** True when a conditional write or transaction failed on its condition. */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** Runs a Query to the end, following pagination, and returns the items without their keys. */
export async function queryAll<T>(table: Table, input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []).map((item) => withoutKeys(item) as T));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * Page cursors are opaque to callers: the key DynamoDB stopped at, as base64url JSON. A cursor
 * that does not decode to an object of strings is refused as bad input.
 */
export function encodeCursor(lastEvaluatedKey: Record<string, unknown> | undefined): string | null {
  return lastEvaluatedKey ? Buffer.from(JSON.stringify(lastEvaluatedKey)).toString('base64url') : null;
}

export function decodeCursor(cursor: string | undefined): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (key && typeof key === 'object' && !Array.isArray(key) && Object.values(key).every((value) => typeof value === 'string')) {
      return key as Record<string, string>;
    }
  } catch {
    // fall through
  }
  throw invalidInput('cursor: is not a cursor this API returned.');
}
