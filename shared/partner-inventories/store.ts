import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { service } from '../platform/runtime';
import {
  decodeCursor,
  encodeCursor,
  isConditionFailure,
  organizationPartition,
  TABLE_KEYS,
  tableOf,
  withoutKeys,
  type Table,
} from '../platform/table';
import type { InventoryStatus, PartnerInventory } from './inventory';

/** Keys of this store's items in the single table. */
const keys = {
  inventory: (organizationId: string, inventoryId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `INVENTORY#${inventoryId}`,
  }),
  /** GSI1: the organization's inventories, newest first. */
  inventoriesOfOrganization: (organizationId: string) => `${organizationPartition(organizationId)}#INVENTORIES`,
} as const;

export interface InventoryPage {
  inventories: PartnerInventory[];
  nextCursor: string | null;
}

export class InventoryStore {
  constructor(private readonly table: Table) {}

  async create(inventory: PartnerInventory): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.inventory(inventory.organizationId, inventory.id),
          GSI1PK: keys.inventoriesOfOrganization(inventory.organizationId),
          GSI1SK: `${inventory.createdAt}#${inventory.id}`,
          ...inventory,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** The organization's inventory; another organization's is answered as missing. */
  async get(organizationId: string, inventoryId: string): Promise<PartnerInventory | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.inventory(organizationId, inventoryId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as PartnerInventory) : undefined;
  }

  async list(organizationId: string, limit: number, cursor: string | undefined): Promise<InventoryPage> {
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.inventoriesOfOrganization(organizationId) },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor, {
          partition: { GSI1PK: keys.inventoriesOfOrganization(organizationId) },
          attributes: ['GSI1SK', 'PK', 'SK'],
        }),
      }),
    );
    return {
      inventories: (page.Items ?? []).map((item) => withoutKeys(item) as PartnerInventory),
      nextCursor: encodeCursor(page.LastEvaluatedKey),
    };
  }

  /**
   * Moves the inventory from one status to the next with the given changes; false when it is no
   * longer in `from` (another request or delivery got there first).
   */
  async transition(
    inventory: Pick<PartnerInventory, 'organizationId' | 'id'>,
    from: InventoryStatus,
    changes: Partial<PartnerInventory> & { status: InventoryStatus; updatedAt: string },
  ): Promise<boolean> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.inventory(inventory.organizationId, inventory.id),
          UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])) },
          ExpressionAttributeValues: { ':from': from, ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async delete(organizationId: string, inventoryId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.inventory(organizationId, inventoryId) }));
  }
}

export const inventoryStoreOf = /* @__PURE__ */ service((runtime) => new InventoryStore(tableOf(runtime)));
