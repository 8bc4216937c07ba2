import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { service } from '../platform/runtime';
import { isConditionFailure, OwnedItems, tableOf, type OwnedPage, type Table } from '../platform/table';
import type { InventoryStatus, PartnerInventory } from './inventory';

export class InventoryStore {
  private readonly items: OwnedItems<PartnerInventory>;

  constructor(private readonly table: Table) {
    this.items = new OwnedItems(table, 'INVENTORY', 'INVENTORIES');
  }

  create(inventory: PartnerInventory): Promise<void> {
    return this.items.create(inventory);
  }

  /** The organization's inventory; another organization's is answered as missing. */
  get(organizationId: string, inventoryId: string): Promise<PartnerInventory | undefined> {
    return this.items.get(organizationId, inventoryId);
  }

  /** Newest first. */
  list(organizationId: string, limit: number, cursor: string | undefined): Promise<OwnedPage<PartnerInventory>> {
    return this.items.list(organizationId, limit, cursor);
  }

  delete(organizationId: string, inventoryId: string): Promise<void> {
    return this.items.delete(organizationId, inventoryId);
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
          Key: this.items.key(inventory.organizationId, inventory.id),
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
}

export const inventoryStoreOf = /* @__PURE__ */ service((runtime) => new InventoryStore(tableOf(runtime)));
