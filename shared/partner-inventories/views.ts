import type { PartnerInventory } from './inventory';

/** What partners see of an inventory: not its organization or storage details. */
export function inventoryView(inventory: PartnerInventory, rejectedRowsUrl?: string) {
  return {
    partnerInventoryId: inventory.id,
    name: inventory.name,
    supplierCode: inventory.supplierCode,
    status: inventory.status,
    fileName: inventory.fileName,
    format: inventory.format,
    sizeBytes: inventory.sizeBytes,
    hotelCount: inventory.hotelCount,
    rejectedCount: inventory.rejectedCount,
    rejectedSample: inventory.rejectedSample,
    rejectedRowsUrl,
    error: inventory.error,
    createdAt: inventory.createdAt,
    updatedAt: inventory.updatedAt,
  };
}
