import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from './credentials';
import { isConditionFailure, queryAll, TABLE_KEYS, withoutKeys, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  apiKeysOfOrganization: (organizationId: string) => `ORG#${organizationId}#APIKEYS`,
} as const;

export class ApiKeyStore {
  constructor(private readonly table: Table) {}

  async create(record: ApiKeyRecord): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.apiKey(record.id),
          GSI1PK: keys.apiKeysOfOrganization(record.organizationId),
          GSI1SK: `${record.createdAt}#${record.id}`,
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKey(keyId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as ApiKeyRecord) : undefined;
  }

  /** The organization's keys, oldest first. */
  async listForOrganization(organizationId: string): Promise<ApiKeyRecord[]> {
    return queryAll<ApiKeyRecord>(this.table, {
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeysOfOrganization(organizationId) },
    });
  }

  /**
   * Revokes a key of the organization. Returns the revoked record, or undefined when the
   * organization has no such key. Revoking twice keeps the first revocation time.
   */
  async revoke(organizationId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.apiKey(keyId),
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ConditionExpression: 'organizationId = :org',
          ExpressionAttributeValues: { ':at': at.toISOString(), ':org': organizationId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? (withoutKeys(Attributes) as ApiKeyRecord) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}
