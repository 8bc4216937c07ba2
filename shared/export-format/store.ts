import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportFormatConfig } from './export-format';
import { keys, withoutKeys, type Table } from '../platform/table';

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
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...keys.exportFormat(organizationId), ...config } }),
    );
  }
}
