import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportFormatConfig } from './export-format';
import { service } from '../platform/runtime';
import { organizationPartition, withoutKeys, tableOf, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  exportFormat: (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'EXPORT_FORMAT' }),
} as const;

export class ExportFormatStore {
  constructor(private readonly table: Table) {}

  async get(organizationId: string): Promise<ExportFormatConfig | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.exportFormat(organizationId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as ExportFormatConfig) : undefined;
  }

  /** Replaces the whole configuration (a Put, so no field of the previous one survives). */
  async put(organizationId: string, config: ExportFormatConfig): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.table.name, Item: { ...keys.exportFormat(organizationId), ...config } }));
  }
}

export const exportFormatStoreOf = /* @__PURE__ */ service((runtime) => new ExportFormatStore(tableOf(runtime)));
