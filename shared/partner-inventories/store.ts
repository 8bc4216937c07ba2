import { service } from '../platform/runtime';
import { OwnedItems, tableOf, transitionStatus, type OwnedPage, type Table } from '../platform/table';
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

  delete(organizationId: string, inventoryId: string): Promise<boolean> {
    return this.items.delete(organizationId, inventoryId);
  }

  /**
   * Moves the inventory from one status to the next with the given changes; false when it is no
   * longer in `from` (another request or delivery got there first).
   */
  transition(
    inventory: Pick<PartnerInventory, 'organizationId' | 'id'>,
    from: InventoryStatus,
    changes: Partial<PartnerInventory> & { status: InventoryStatus; updatedAt: string },
  ): Promise<boolean> {
    return transitionStatus(this.table, this.items.key(inventory.organizationId, inventory.id), [from], changes);
  }
}

export const inventoryStoreOf = /* @__PURE__ */ service((runtime) => new InventoryStore(tableOf(runtime)));
