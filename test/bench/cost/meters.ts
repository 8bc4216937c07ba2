/**
 * What AWS would bill, counted between the service and its stand-ins: an HTTP proxy before
 * DynamoDB Local asks every table call for its consumed capacity (`ReturnConsumedCapacity:
 * INDEXES`, which DynamoDB Local reports per table and index) and sums it by operation and index,
 * correcting what DynamoDB Local reports otherwise than DynamoDB bills (batch reads of keys with no
 * item; a transaction's items of equal units, counted once); one before s3rver counts requests by
 * price class and the bytes sent. Neither changes what the service sees: the answers pass through byte for byte.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetItemCommand, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { itemBytes } from './item-size';

/** Read or write units, by operation, each split into the table's and each index's. */
export type CapacityTally = Map<string, { table: number; indexes: Map<string, number>; calls: number }>;

const READ_OPERATIONS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface DynamoDbMeter {
  endpoint: string;
  reads: CapacityTally;
  writes: CapacityTally;
  reset(): void;
  close(): Promise<void>;
}

interface ConsumedCapacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/**
 * A BatchGetItem's keys that found no item: DynamoDB bills each as the GetItem it is (a unit when
 * consistent, half when not), DynamoDB Local reports nothing for them.
 */
function unfoundKeyUnits(
  input: Record<string, unknown>,
  responses: Record<string, unknown[]>,
  unprocessed: Record<string, { Keys: unknown[] }>,
): number {
  const requested = (input.RequestItems ?? {}) as Record<string, { Keys: unknown[]; ConsistentRead?: boolean }>;
  return Object.entries(requested).reduce(
    (sum, [table, { Keys, ConsistentRead }]) =>
      sum + (Keys.length - (responses[table]?.length ?? 0) - (unprocessed[table]?.Keys.length ?? 0)) * (ConsistentRead ? 1 : 0.5),
    0,
  );
}

/** A transaction's action, with the item it writes or checks (the table's key: PK and SK). */
interface TransactAction {
  table: string;
  key: Record<string, AttributeValue>;
  /** A Put's new item. */
  put?: Record<string, AttributeValue>;
}

function transactActions(input: Record<string, unknown>): TransactAction[] {
  const items = (input.TransactItems ?? []) as Record<
    string,
    { TableName: string; Key?: Record<string, AttributeValue>; Item?: Record<string, AttributeValue> }
  >[];
  return items.map((wrapper) => {
    const [kind, action] = Object.entries(wrapper)[0]!;
    if (kind !== 'Put') return { table: action.TableName, key: action.Key! };
    return { table: action.TableName, key: { PK: action.Item!.PK!, SK: action.Item!.SK! }, put: action.Item! };
  });
}

/** Units a size takes: one per kilobyte begun. */
const unitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/**
 * A transaction's write units as DynamoDB bills them: two per kilobyte of each item, the larger of
 * the item before and after (a condition check: the item as it is), on the table, and on each index
 * whose key the item has, before or after. DynamoDB Local doubles them too, but adds up the units of
 * its items as a set: items of equal units count once there.
 */
function transactionUnits(
  actions: readonly TransactAction[],
  before: readonly (Record<string, unknown> | undefined)[],
  after: readonly (Record<string, unknown> | undefined)[],
  indexKeys: Record<string, string>,
) {
  let table = 0;
  const indexes = new Map<string, number>();
  actions.forEach((_, i) => {
    const sizes = [before[i], after[i]].filter((item): item is Record<string, unknown> => item !== undefined);
    const units = 2 * unitsOf(Math.max(0, ...sizes.map(itemBytes)));
    table += units;
    for (const [index, keyAttribute] of Object.entries(indexKeys)) {
      if (sizes.some((item) => item[keyAttribute] !== undefined)) indexes.set(index, (indexes.get(index) ?? 0) + units);
    }
  });
  return { table, indexes };
}

export async function dynamoDbMeter(target: string, options: { indexKeys?: Record<string, string> } = {}): Promise<DynamoDbMeter> {
  const reads: CapacityTally = new Map();
  const writes: CapacityTally = new Map();
  const indexKeys = options.indexKeys ?? { GSI1: 'GSI1PK' };
  // The meter's own reads of the items a transaction writes, straight to DynamoDB Local: not counted.
  const direct = new DynamoDBClient({
    endpoint: target,
    region: 'us-east-1',
    credentials: { accessKeyId: 'meter', secretAccessKey: 'meter' },
  });
  const itemsOf = async (actions: readonly TransactAction[]) => {
    if (actions.length === 0) return [];
    const tables = Object.fromEntries(
      [...new Set(actions.map((action) => action.table))].map((table) => [
        table,
        { Keys: actions.filter((action) => action.table === table).map((action) => action.key), ConsistentRead: true },
      ]),
    );
    const found = (await direct.send(new BatchGetItemCommand({ RequestItems: tables }))).Responses ?? {};
    return actions.map(({ table, key }) => {
      const item = found[table]?.find((candidate) => candidate.PK?.S === key.PK?.S && candidate.SK?.S === key.SK?.S);
      return item && unmarshall(item);
    });
  };
  const tallied = (tally: CapacityTally, operation: string) => {
    const entry = tally.get(operation) ?? { table: 0, indexes: new Map<string, number>(), calls: 0 };
    tally.set(operation, entry);
    return entry;
  };
  const server = await proxy(target, async (request, body) => {
    const operation = String(request.headers['x-amz-target'] ?? '').replace(/^DynamoDB_20120810\./, '');
    const tally = READ_OPERATIONS.has(operation) ? reads : WRITE_OPERATIONS.has(operation) ? writes : undefined;
    if (!tally) return { body };
    const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (operation === 'TransactWriteItems') {
      const actions = transactActions(input);
      const before = await itemsOf(actions);
      return {
        body,
        answered: async (status) => {
          if (status !== 200) return;
          const stored = await itemsOf(actions);
          const after = actions.map((action, i) => (action.put ? unmarshall(action.put) : stored[i]));
          const units = transactionUnits(actions, before, after, indexKeys);
          const entry = tallied(tally, operation);
          entry.calls += 1;
          entry.table += units.table;
          for (const [index, count] of units.indexes) entry.indexes.set(index, (entry.indexes.get(index) ?? 0) + count);
        },
      };
    }
    return {
      body: Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'INDEXES' })),
      answered: (status, answer) => {
        if (status !== 200) return;
        const output = JSON.parse(answer.toString('utf8')) as {
          ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
          Responses?: Record<string, unknown[]>;
          UnprocessedKeys?: Record<string, { Keys: unknown[] }>;
        };
        const entry = tallied(tally, operation);
        entry.calls += 1;
        for (const capacity of [output.ConsumedCapacity ?? []].flat()) {
          const indexes = Object.entries(capacity.GlobalSecondaryIndexes ?? {});
          const onIndexes = indexes.reduce((sum, [, units]) => sum + (units.CapacityUnits ?? 0), 0);
          entry.table += capacity.Table?.CapacityUnits ?? (capacity.CapacityUnits ?? 0) - onIndexes;
          for (const [name, units] of indexes) entry.indexes.set(name, (entry.indexes.get(name) ?? 0) + (units.CapacityUnits ?? 0));
        }
        if (operation === 'BatchGetItem') entry.table += unfoundKeyUnits(input, output.Responses ?? {}, output.UnprocessedKeys ?? {});
      },
    };
  });
  return {
    endpoint: addressOf(server),
    reads,
    writes,
    reset: () => {
      reads.clear();
      writes.clear();
    },
    close: async () => {
      direct.destroy();
      await closed(server);
    },
  };
}

export interface S3Meter {
  endpoint: string;
  /** PUT, COPY, POST, LIST requests; GET and HEAD; DELETE (free). */
  requests: { writes: number; reads: number; deletes: number };
  /** Writes by the kind of object written: its key with ids and numbers left out. */
  writesByKind: Map<string, number>;
  bytesIn: number;
  reset(): void;
  close(): Promise<void>;
}

export async function s3Meter(target: string): Promise<S3Meter> {
  const meter = { requests: { writes: 0, reads: 0, deletes: 0 }, writesByKind: new Map<string, number>(), bytesIn: 0 };
  const server = await proxy(target, async (request, body) => {
    const method = request.method ?? 'GET';
    const listing = method === 'GET' && /^\/[^/]+\/?(\?|$)/.test(request.url ?? '');
    if (method === 'DELETE') meter.requests.deletes += 1;
    else if (method === 'PUT' || method === 'POST' || listing) {
      meter.requests.writes += 1;
      const kind = objectKind(request.url ?? '');
      meter.writesByKind.set(kind, (meter.writesByKind.get(kind) ?? 0) + 1);
    } else meter.requests.reads += 1;
    meter.bytesIn += body.length;
    return { body };
  });
  return {
    endpoint: addressOf(server),
    get requests() {
      return meter.requests;
    },
    get writesByKind() {
      return meter.writesByKind;
    },
    get bytesIn() {
      return meter.bytesIn;
    },
    reset: () => {
      meter.requests = { writes: 0, reads: 0, deletes: 0 };
      meter.writesByKind.clear();
      meter.bytesIn = 0;
    },
    close: () => closed(server),
  };
}

/** An object key's kind: its path with the bucket, ids, numbers and query left out ("mapping-jobs/results"). */
function objectKind(url: string): string {
  const [, ...path] = (url.split('?')[0] ?? '').split('/').filter(Boolean);
  return (
    path
      .filter((segment) => !/\d/.test(segment) || /^[a-z-]+$/.test(segment))
      .slice(0, 3)
      .join('/') || '(bucket)'
  );
}

type Inspect = (
  request: IncomingMessage,
  body: Buffer,
) => Promise<{ body: Buffer; answered?: (status: number, answer: Buffer) => void | Promise<void> }>;

/** Forwards every request to `target` (the Host header as sent, so signatures still hold), letting `inspect` see and change its body. */
async function proxy(target: string, inspect: Inspect): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const { body, answered } = await inspect(request, Buffer.concat(chunks));
        const forwarded = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: request.method,
            path: request.url,
            headers: { ...request.headers, 'content-length': String(body.length) },
          },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => parts.push(chunk));
            answer.on('end', () => {
              const whole = Buffer.concat(parts);
              // Counted before the service has its answer: a reading after it finds the count.
              void (async () => {
                await answered?.(answer.statusCode ?? 0, whole);
                response.writeHead(answer.statusCode ?? 502, answer.headers);
                response.end(whole);
              })().catch((error: unknown) => {
                response.writeHead(500);
                response.end(String(error));
              });
            });
          },
        );
        forwarded.on('error', (error) => {
          response.writeHead(502);
          response.end(String(error));
        });
        forwarded.end(body);
      })().catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function addressOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
