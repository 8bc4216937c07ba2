/**
 * The single DynamoDB table: its key attributes, how each entity's keys are built, and the
 * document client every repository shares.
 *
 * | entity              | PK                  | SK                                   | GSI1PK / GSI1SK                      |
 * |---------------------|---------------------|--------------------------------------|--------------------------------------|
 * | organization        | ORG#<orgId>         | ORG                                  | ORGS / <createdAt>#<orgId>           |
 * | API key             | APIKEY#<keyId>      | APIKEY                               | ORG#<orgId>#APIKEYS / <createdAt>#<keyId> |
 * | supplier            | SUPPLIERS           | SUPPLIER#<supplierId>                |                                      |
 * | connection          | ORG#<orgId>         | CONNECTION#<supplierId>              |                                      |
 * | supplier ever used  | ORG#<orgId>         | SUPPLIER_EVER#<supplierId>           |                                      |
 * | supplier request    | ORG#<orgId>         | SUPPLIER_REQUEST#<submittedAt>#<id>  |                                      |
 * | export format       | ORG#<orgId>         | EXPORT_FORMAT                        |                                      |
 * | rate-limit window   | ORG#<orgId>         | RATE#<bucket>#<windowStart>          | (expires through the TTL attribute)  |
 * | billing account     | ORG#<orgId>         | BILLING                              | (customer, credits, subscription)    |
 * | usage per UTC day   | ORG#<orgId>         | USAGE_DAY#<yyyy-mm-dd>               |                                      |
 * | usage per month     | ORG#<orgId>         | USAGE_MONTH#<yyyy-mm>                |                                      |
 * | usage per supplier  | ORG#<orgId>         | USAGE_SUPPLIER#<yyyy-mm>#<supplierId>|                                      |
 * | job reservation     | ORG#<orgId>         | RESERVATION#<jobId>                  |                                      |
 * | payment customer    | PAYCUSTOMER#<id>    | PAYCUSTOMER                          | (provider customer -> organization)  |
 * | payment event done  | PAYEVENT#<eventId>  | PAYEVENT                             | (expires through the TTL attribute)  |
 * | current reference   | REFERENCE           | CURRENT                              |                                      |
 * | reference hotel     | REFHOTEL#<hotelId>  | VERSION#<dataVersionId>              |                                      |
 * | merged duplicate    | REFERENCE           | MERGED#<duplicateHotelId>            |                                      |
 * | duplicate report    | DUPLICATE#<reportId>| REPORT                               | ORG#<orgId>#DUPLICATES / <submittedAt> |
 * | event (outbox)      | ORG#<orgId>         | EVENT#<occurredAt>#<eventId>         |                                      |
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AppConfig } from './config';

export const TABLE_KEYS = {
  partitionKey: 'PK',
  sortKey: 'SK',
  gsi1: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'expiresAt',
} as const;

export const keys = {
  organization: (organizationId: string) => ({ PK: `ORG#${organizationId}`, SK: 'ORG' }),
  organizationsIndex: 'ORGS',
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  apiKeysOfOrganization: (organizationId: string) => `ORG#${organizationId}#APIKEYS`,
  supplierCatalogue: 'SUPPLIERS',
  supplier: (supplierId: string) => ({ PK: 'SUPPLIERS', SK: `SUPPLIER#${supplierId}` }),
  organizationPartition: (organizationId: string) => `ORG#${organizationId}`,
  connection: (organizationId: string, supplierId: string) => ({
    PK: `ORG#${organizationId}`,
    SK: `CONNECTION#${supplierId}`,
  }),
  supplierEverConnected: (organizationId: string, supplierId: string) => ({
    PK: `ORG#${organizationId}`,
    SK: `SUPPLIER_EVER#${supplierId}`,
  }),
  supplierRequest: (organizationId: string, submittedAt: string, requestId: string) => ({
    PK: `ORG#${organizationId}`,
    SK: `SUPPLIER_REQUEST#${submittedAt}#${requestId}`,
  }),
  exportFormat: (organizationId: string) => ({ PK: `ORG#${organizationId}`, SK: 'EXPORT_FORMAT' }),
  billingAccount: (organizationId: string) => ({ PK: `ORG#${organizationId}`, SK: 'BILLING' }),
  usageDay: (organizationId: string, day: string) => ({ PK: `ORG#${organizationId}`, SK: `USAGE_DAY#${day}` }),
  usageMonth: (organizationId: string, month: string) => ({ PK: `ORG#${organizationId}`, SK: `USAGE_MONTH#${month}` }),
  usageMonthPrefix: 'USAGE_MONTH#',
  supplierUsage: (organizationId: string, month: string, supplierId: string) => ({
    PK: `ORG#${organizationId}`,
    SK: `USAGE_SUPPLIER#${month}#${supplierId}`,
  }),
  supplierUsagePrefix: (month: string) => `USAGE_SUPPLIER#${month}#`,
  reservation: (organizationId: string, jobId: string) => ({ PK: `ORG#${organizationId}`, SK: `RESERVATION#${jobId}` }),
  paymentCustomer: (customerId: string) => ({ PK: `PAYCUSTOMER#${customerId}`, SK: 'PAYCUSTOMER' }),
  paymentEvent: (eventId: string) => ({ PK: `PAYEVENT#${eventId}`, SK: 'PAYEVENT' }),
  rateWindow: (organizationId: string, bucket: string, windowStart: number) => ({
    PK: `ORG#${organizationId}`,
    SK: `RATE#${bucket}#${windowStart}`,
  }),
  currentReference: { PK: 'REFERENCE', SK: 'CURRENT' },
  referenceHotel: (hotelId: string, dataVersionId: string) => ({
    PK: `REFHOTEL#${hotelId}`,
    SK: `VERSION#${dataVersionId}`,
  }),
  mergedHotel: (duplicateHotelId: string) => ({ PK: 'REFERENCE', SK: `MERGED#${duplicateHotelId}` }),
  duplicateReport: (reportId: string) => ({ PK: `DUPLICATE#${reportId}`, SK: 'REPORT' }),
  duplicateReportsOfOrganization: (organizationId: string) => `ORG#${organizationId}#DUPLICATES`,
  event: (organizationId: string, occurredAt: string, eventId: string) => ({
    PK: `ORG#${organizationId}`,
    SK: `EVENT#${occurredAt}#${eventId}`,
  }),
} as const;

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
    name: config.tableName,
  };
}

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
