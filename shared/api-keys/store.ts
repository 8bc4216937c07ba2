import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isUsable, type ApiKeyRecord } from './credentials';
import { isConditionFailure, organizationPartition, queryAll, TABLE_KEYS, transactWrite, withoutKeys, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  apiKeysOfOrganization: (organizationId: string) => `ORG#${organizationId}#APIKEYS`,
  /** How many of the organization's keys are active (`activeKeys`), kept in the transaction of each create and revocation. */
  activeKeyCount: (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'APIKEYS' }),
} as const;

export class ApiKeyStore {
  constructor(private readonly table: Table) {}

  /**
   * Stores a new key and counts it as active. With `maxActive`, stores nothing and answers false
   * when the organization already has that many active keys; concurrent creates cannot pass it
   * together (the count is checked and raised in the key's transaction).
   */
  async create(record: ApiKeyRecord, maxActive?: number): Promise<boolean> {
    const failed = await transactWrite(this.table, [
      {
        Put: {
          TableName: this.table.name,
          Item: {
            ...keys.apiKey(record.id),
            GSI1PK: keys.apiKeysOfOrganization(record.organizationId),
            GSI1SK: `${record.createdAt}#${record.id}`,
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: keys.activeKeyCount(record.organizationId),
          UpdateExpression: 'ADD activeKeys :one',
          // Without a cap, the count must exist all the same: keys made before it are counted first.
          ConditionExpression: maxActive === undefined ? 'attribute_exists(activeKeys)' : 'activeKeys < :max',
          ExpressionAttributeValues: maxActive === undefined ? { ':one': 1 } : { ':one': 1, ':max': maxActive },
        },
      },
    ]);
    if (!failed.length) return true;
    if (failed.includes(0)) throw new Error(`An API key with the id ${record.id} exists already.`);
    // No count yet (the organization's first key, or keys made before there was one): take it, and try again.
    if (await this.countActiveKeys(record.organizationId)) return this.create(record, maxActive);
    return false;
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
   * Revokes a key of the organization, and counts it active no more. Returns the revoked record,
   * or undefined when the organization has no such key. Revoking twice keeps the first revocation
   * time and lowers the count once.
   */
  async revoke(organizationId: string, keyId: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const revocation = {
      TableName: this.table.name,
      Key: keys.apiKey(keyId),
      UpdateExpression: 'SET revokedAt = :at',
      ConditionExpression: 'organizationId = :org AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':at': at.toISOString(), ':org': organizationId },
    };
    const failed = await transactWrite(this.table, [
      { Update: revocation },
      {
        Update: {
          TableName: this.table.name,
          Key: keys.activeKeyCount(organizationId),
          UpdateExpression: 'ADD activeKeys :minusOne',
          ConditionExpression: 'attribute_exists(activeKeys)',
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    ]);
    if (failed.length && !failed.includes(0)) {
      // No count yet: the key alone; the count, when it is taken, leaves revoked keys out.
      await this.table.client.send(new UpdateCommand(revocation)).catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    }
    const record = await this.get(keyId);
    return record?.organizationId === organizationId && record.revokedAt !== undefined ? record : undefined;
  }

  /**
   * Writes the count of the organization's active keys when it has none yet; false when it had one.
   * Only keys written before counts existed are counted this way: every later key is counted in the
   * transaction that stores it, which waits for this count.
   */
  private async countActiveKeys(organizationId: string): Promise<boolean> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.activeKeyCount(organizationId), ConsistentRead: true }),
    );
    if (Item) return false;
    const active = (await this.listForOrganization(organizationId)).filter(isUsable).length;
    await this.table.client
      .send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.activeKeyCount(organizationId), activeKeys: active },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    return true;
  }
}
