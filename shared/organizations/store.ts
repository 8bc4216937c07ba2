import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unauthenticated } from '../platform/errors';
import type { Organization } from './organization';
import { service } from '../platform/runtime';
import { organizationPartition, queryAll, TABLE_KEYS, tableOf, withoutKeys, type Table } from '../platform/table';

/** The organization item's key; other capabilities' transactions update its counters. */
export const organizationKey = (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'ORG' });

const keys = { organization: organizationKey, organizationsIndex: 'ORGS' } as const;

export class OrganizationStore {
  constructor(private readonly table: Table) {}

  async create(organization: Organization): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.organization(organization.id),
          GSI1PK: keys.organizationsIndex,
          GSI1SK: `${organization.createdAt}#${organization.id}`,
          ...organization,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(organizationId: string): Promise<Organization | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.organization(organizationId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as Organization) : undefined;
  }

  /** The caller's organization; a credential whose organization is gone is no credential. */
  async require(organizationId: string): Promise<Organization> {
    const organization = await this.get(organizationId);
    if (!organization) throw unauthenticated('The organization of this credential no longer exists.');
    return organization;
  }

  /** Every organization, oldest first (back-office listing; a GSI query, never a scan). */
  async list(): Promise<Organization[]> {
    return queryAll<Organization>(this.table, {
      IndexName: TABLE_KEYS.gsi1.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.organizationsIndex },
    });
  }
}

export const organizationStoreOf = /* @__PURE__ */ service((runtime) => new OrganizationStore(tableOf(runtime)));
