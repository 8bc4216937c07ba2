/**
 * The single DynamoDB table: its key attributes, the document client every store shares, and the
 * helpers they use. Each capability builds its own items' keys in its store; the README's "Table
 * keys" section lists them all in one place.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { requireSetting, type AppConfig } from './config';
import { invalidInput } from './errors';
import { service } from './runtime';
import { traced } from './tracing';

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
  return {
    client: DynamoDBDocumentClient.from(dynamoDbClient(config), { marshallOptions: { removeUndefinedValues: true } }),
    name: requireSetting(config, 'tableName'),
  };
}

/** The low-level client of the configured DynamoDB (for libraries that take one; the stores use tableOf). */
export function dynamoDbClient(config: Pick<AppConfig, 'region' | 'dynamoDbEndpoint'>): DynamoDBClient {
  return traced(
    new DynamoDBClient({
      region: config.region,
      ...(config.dynamoDbEndpoint && {
        endpoint: config.dynamoDbEndpoint,
        // DynamoDB Local accepts any static credentials.
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    }),
  );
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

/** A conditional write (or transaction): false when its condition failed, so another request got there first. */
export async function writtenIf(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** One write of a transaction. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction that lost only to a concurrent one on the same items is tried again, this many times. */
const TRANSACTION_CONFLICT_RETRIES = 10;

/**
 * Writes the items all or nothing (one item alone as a plain write). Answers the indexes of the
 * items whose condition failed, none when everything was written. A transaction that lost only to a concurrent one on the same items
 * is tried again after a short random wait, so callers see conditions, never conflicts.
 */
export async function transactWrite(table: Table, items: TransactItem[]): Promise<number[]> {
  if (items.length === 1 && !items[0]!.ConditionCheck) return writeOne(table, items[0]!);
  for (let attempt = 0; ; attempt++) {
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: items }));
      return [];
    } catch (error) {
      if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
      if (failed.length) return failed;
      const conflicted = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflicted || attempt >= TRANSACTION_CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
    }
  }
}

/** One item's write as a plain write: a transaction of one bills it twice. */
async function writeOne(table: Table, item: TransactItem): Promise<number[]> {
  try {
    if (item.Put) await table.client.send(new PutCommand(item.Put));
    else if (item.Update) await table.client.send(new UpdateCommand(item.Update));
    else await table.client.send(new DeleteCommand(item.Delete!));
    return [];
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return [0];
    throw error;
  }
}

/** Runs a Query to the end, following pagination, and returns the items without their keys. */
export async function queryAll<T>(table: Table, input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []).map((item) => withoutKeys(item) as T));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * Page cursors are opaque to callers: the key DynamoDB stopped at, as base64url JSON. Decoding
 * checks it is a key of the very Query being continued (same partition, the expected attributes),
 * so a forged or foreign cursor is refused as bad input and never reaches DynamoDB.
 */
export function encodeCursor(lastEvaluatedKey: Record<string, unknown> | undefined): string | null {
  return lastEvaluatedKey ? Buffer.from(JSON.stringify(lastEvaluatedKey)).toString('base64url') : null;
}

export function decodeCursor(
  cursor: string | undefined,
  query: { partition: Record<string, string>; attributes: readonly string[] },
): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const expected = [...Object.keys(query.partition), ...query.attributes].sort();
  const valid =
    typeof key === 'object' &&
    key !== null &&
    !Array.isArray(key) &&
    JSON.stringify(Object.keys(key).sort()) === JSON.stringify(expected) &&
    // DynamoDB refuses empty key strings with a ValidationException (a 500): refuse them here.
    Object.values(key).every((value) => typeof value === 'string' && value !== '') &&
    Object.entries(query.partition).every(([name, value]) => (key as Record<string, string>)[name] === value);
  if (!valid) throw invalidInput('cursor: is not a cursor of this list.');
  return key as Record<string, string>;
}

/** BatchWrite's limit per call. */
const BATCH_WRITE_SIZE = 25;

/**
 * Writes (PutRequest / DeleteRequest entries) in batches of 25, `parallel` batches at a time,
 * retrying with backoff what DynamoDB leaves unprocessed.
 */
export async function batchWrite(table: Table, writes: readonly Record<string, unknown>[], parallel = 8): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < writes.length; start += BATCH_WRITE_SIZE) batches.push(writes.slice(start, start + BATCH_WRITE_SIZE));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let requests = batches[next++]!;
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB kept leaving batch writes unprocessed.');
        if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
        const { UnprocessedItems } = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: requests } }));
        requests = UnprocessedItems?.[table.name] ?? [];
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/** BatchGet's limit per call. */
const BATCH_GET_SIZE = 100;

/**
 * The items of `keys` (PK and SK), strongly consistent, in the order asked (undefined where there
 * is none): one call per 100 keys, all at once, retrying with backoff what DynamoDB leaves unprocessed.
 */
export async function batchGet(
  table: Table,
  keys: readonly { PK: string; SK: string }[],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const keyOf = (key: { PK: unknown; SK: unknown }) => `${String(key.PK)}\u0000${String(key.SK)}`;
  const batches: { PK: string; SK: string }[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_SIZE) batches.push(keys.slice(start, start + BATCH_GET_SIZE));
  await Promise.all(
    batches.map(async (batch) => {
      let wanted: Record<string, unknown>[] = [...new Map(batch.map((key) => [keyOf(key), { PK: key.PK, SK: key.SK }])).values()];
      for (let attempt = 0; wanted.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB kept leaving batch reads unprocessed.');
        if (attempt > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** attempt));
        const { Responses, UnprocessedKeys } = await table.client.send(
          new BatchGetCommand({ RequestItems: { [table.name]: { Keys: wanted, ConsistentRead: true } } }),
        );
        for (const item of Responses?.[table.name] ?? []) found.set(keyOf(item as { PK: unknown; SK: unknown }), item);
        wanted = UnprocessedKeys?.[table.name]?.Keys ?? [];
      }
    }),
  );
  return keys.map((key) => found.get(keyOf(key)));
}

/** An item an organization owns, created once and listed newest first. */
export interface OwnedItem {
  id: string;
  organizationId: string;
  createdAt: string;
}

export interface OwnedPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * One kind of item an organization owns (`ORG#<orgId>` / `<KIND>#<id>`), indexed on GSI1 as
 * `ORG#<orgId>#<LIST>` / `<createdAt>#<id>` so the organization's items list newest first with
 * an opaque cursor. Reads go through the owner's key: another organization's item is missing.
 */
export class OwnedItems<T extends OwnedItem> {
  constructor(
    private readonly table: Table,
    /** `JOB`, `INVENTORY`: the item's sort key prefix. */
    private readonly kind: string,
    /** `JOBS`, `INVENTORIES`: the list's name. */
    private readonly list_: string,
  ) {}

  key(organizationId: string, id: string): { PK: string; SK: string } {
    return { PK: organizationPartition(organizationId), SK: `${this.kind}#${id}` };
  }

  private listPartition(organizationId: string): string {
    return `${organizationPartition(organizationId)}#${this.list_}`;
  }

  async create(item: T): Promise<void> {
    await this.put(item, 'attribute_not_exists(PK)');
  }

  /**
   * Creates the item unless its organization owns `limit` of this kind already; false when it
   * does. The count is an item of its own, changed in one transaction with the item, so requests
   * running at once cannot pass the limit together as a count read first would let them.
   */
  async createWithin(item: T, limit: number): Promise<boolean> {
    const create = async () =>
      (
        await transactWrite(this.table, [
          {
            Update: {
              TableName: this.table.name,
              Key: this.countKey(item.organizationId),
              UpdateExpression: 'SET #count = #count + :one',
              ConditionExpression: 'attribute_exists(#count) AND #count < :limit',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':one': 1, ':limit': limit },
            },
          },
          { Put: { TableName: this.table.name, Item: this.stored(item), ConditionExpression: 'attribute_not_exists(PK)' } },
        ])
      ).length === 0;
    // Refused: at the limit, or the organization has no count yet (its items are older than counting).
    return (await create()) || ((await this.startCount(item.organizationId)) && create());
  }

  /** Deletes an item created by createWithin and gives its place back; false when there was nothing to delete. */
  async deleteCounted(organizationId: string, id: string): Promise<boolean> {
    const remove = async () =>
      (
        await transactWrite(this.table, [
          { Delete: { TableName: this.table.name, Key: this.key(organizationId, id), ConditionExpression: 'attribute_exists(PK)' } },
          {
            Update: {
              TableName: this.table.name,
              Key: this.countKey(organizationId),
              UpdateExpression: 'SET #count = #count - :one',
              ConditionExpression: 'attribute_exists(#count)',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ])
      ).length === 0;
    return (await remove()) || ((await this.startCount(organizationId)) && remove());
  }

  private countKey(organizationId: string): { PK: string; SK: string } {
    return { PK: organizationPartition(organizationId), SK: `COUNT#${this.kind}` };
  }

  /**
   * After a refused counted write: starts the count at what the organization owns when it had none
   * (items older than counting), answering whether it was missing, so the write is worth trying
   * again. Read only on that path: a counted write costs no read.
   */
  private async startCount(organizationId: string): Promise<boolean> {
    const key = this.countKey(organizationId);
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
    if (Item) return false;
    let owned = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': key.PK, ':prefix': `${this.kind}#` },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      owned += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    // Another request may start it first: its count stands, and the write is tried again all the same.
    await writtenIf(
      this.table.client.send(
        new PutCommand({ TableName: this.table.name, Item: { ...key, count: owned }, ConditionExpression: 'attribute_not_exists(PK)' }),
      ),
    );
    return true;
  }

  /**
   * Writes the whole item over the stored one, only while `revision` is still what the caller
   * read (optimistic concurrency: two edits never silently overwrite each other); false when the
   * item is gone or was changed meanwhile.
   */
  replace(item: T & { revision: number }, readRevision: number): Promise<boolean> {
    return writtenIf(this.put(item, 'attribute_exists(PK) AND revision = :read', { ':read': readRevision }));
  }

  /** replace's write, for a transaction with other writes. */
  replacePut(item: T & { revision: number }, readRevision: number): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: this.stored(item),
        ConditionExpression: 'attribute_exists(PK) AND revision = :read',
        ExpressionAttributeValues: { ':read': readRevision },
      },
    };
  }

  private async put(item: T, condition: string, values?: Record<string, unknown>): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: this.stored(item),
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      }),
    );
  }

  private stored(item: T): Record<string, unknown> {
    return {
      ...this.key(item.organizationId, item.id),
      GSI1PK: this.listPartition(item.organizationId),
      GSI1SK: `${item.createdAt}#${item.id}`,
      ...(item as Record<string, unknown>),
    };
  }

  async get(organizationId: string, id: string): Promise<T | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(organizationId, id), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as unknown as T) : undefined;
  }

  async list(organizationId: string, limit: number, cursor: string | undefined): Promise<OwnedPage<T>> {
    const partition = this.listPartition(organizationId);
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, { partition: { GSI1PK: partition }, attributes: ['GSI1SK', 'PK', 'SK'] }),
      }),
    );
    return { items: (page.Items ?? []).map((item) => withoutKeys(item) as unknown as T), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /** False when there was nothing to delete. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const { Attributes } = await this.table.client.send(
      new DeleteCommand({ TableName: this.table.name, Key: this.key(organizationId, id), ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}

/**
 * Sets `changes` on an item only while its `status` is one of `from`: the move from one state to
 * the next happens once. False when the item is in another state (another request or delivery got
 * there first).
 */
export async function transitionStatus(
  table: Table,
  key: Record<string, string>,
  from: readonly string[],
  changes: Record<string, unknown>,
  /** Writes that happen with the transition or not at all (an event item: outbox.ts). */
  alongside: readonly TransactItem[] = [],
): Promise<boolean> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const update = {
    TableName: table.name,
    Key: key,
    UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
    ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
    ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])) },
    ExpressionAttributeValues: {
      ...Object.fromEntries(from.map((status, index) => [`:from${index}`, status])),
      ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
    },
  };
  if (alongside.length) return (await transactWrite(table, [{ Update: update }, ...alongside])).length === 0;
  return writtenIf(table.client.send(new UpdateCommand(update)));
}
