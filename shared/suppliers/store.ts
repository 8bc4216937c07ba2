import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ConnectOutcome, ConnectionRepository, Supplier, SupplierCatalogue, SupplierConnection, SupplierRequest } from './suppliers';
import { organizationKey } from '../organizations';
import { service, type Runtime } from '../platform/runtime';
import { organizationPartition, isConditionFailure, queryAll, transactWrite, withoutKeys, tableOf, type Table } from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  supplierCatalogue: 'SUPPLIERS',
  supplier: (supplierId: string) => ({ PK: 'SUPPLIERS', SK: `SUPPLIER#${supplierId}` }),
  connection: (organizationId: string, supplierId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `CONNECTION#${supplierId}`,
  }),
  supplierEverConnected: (organizationId: string, supplierId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `SUPPLIER_EVER#${supplierId}`,
  }),
  supplierRequest: (organizationId: string, submittedAt: string, requestId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `SUPPLIER_REQUEST#${submittedAt}#${requestId}`,
  }),
} as const;

export class SupplierStore implements SupplierCatalogue, ConnectionRepository {
  constructor(private readonly table: Table) {}

  // --- catalogue -------------------------------------------------------------------------------

  async get(supplierId: string): Promise<Supplier | undefined> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.supplier(supplierId) }));
    return Item ? (withoutKeys(Item) as Supplier) : undefined;
  }

  /** The whole catalogue (one small partition), ordered by id. */
  listCatalogue(): Promise<Supplier[]> {
    return queryAll<Supplier>(this.table, {
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.supplierCatalogue },
    });
  }

  async putSupplier(supplier: Supplier): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.table.name, Item: { ...keys.supplier(supplier.id), ...supplier } }));
  }

  // --- connections -----------------------------------------------------------------------------

  async getConnection(organizationId: string, supplierId: string): Promise<SupplierConnection | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.connection(organizationId, supplierId),
        ConsistentRead: true,
      }),
    );
    return Item ? (withoutKeys(Item) as SupplierConnection) : undefined;
  }

  listConnections(organizationId: string): Promise<SupplierConnection[]> {
    return queryAll<SupplierConnection>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': 'CONNECTION#' },
    });
  }

  async hasEverConnected(organizationId: string, supplierId: string): Promise<boolean> {
    const { Item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.supplierEverConnected(organizationId, supplierId),
        ConsistentRead: true,
      }),
    );
    return Item !== undefined;
  }

  async connect(
    organizationId: string,
    connection: SupplierConnection,
    budget: { firstTime: boolean; maxSuppliers: number },
  ): Promise<ConnectOutcome> {
    const putConnection = {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.connection(organizationId, connection.supplierId), ...connection },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    };
    if (!budget.firstTime) {
      try {
        await this.table.client.send(new PutCommand(putConnection.Put));
        return 'connected';
      } catch (error) {
        if (isConditionFailure(error)) return 'already_connected';
        throw error;
      }
    }
    const failed = await transactWrite(this.table, [
      {
        Put: {
          TableName: this.table.name,
          Item: {
            ...keys.supplierEverConnected(organizationId, connection.supplierId),
            supplierId: connection.supplierId,
            firstConnectedAt: connection.connectedAt,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: organizationKey(organizationId),
          UpdateExpression: 'SET suppliersEverConnected = suppliersEverConnected + :one',
          ConditionExpression: 'suppliersEverConnected < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': budget.maxSuppliers },
        },
      },
      putConnection,
    ]);
    if (!failed.length) return 'connected';
    if (failed.includes(2)) return 'already_connected';
    // Another call recorded this supplier first: it no longer costs budget.
    if (failed.includes(0)) return this.connect(organizationId, connection, { ...budget, firstTime: false });
    return 'limit_reached';
  }

  async disconnect(organizationId: string, supplierId: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.connection(organizationId, supplierId),
          ConditionExpression: 'attribute_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  // --- requests for new suppliers --------------------------------------------------------------

  async putRequest(organizationId: string, request: SupplierRequest): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.supplierRequest(organizationId, request.submittedAt, request.id), ...request },
      }),
    );
  }

  /** The organization's requests, newest first. */
  listRequests(organizationId: string): Promise<SupplierRequest[]> {
    return queryAll<SupplierRequest>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':pk': organizationPartition(organizationId),
        ':prefix': 'SUPPLIER_REQUEST#',
      },
      ScanIndexForward: false,
    });
  }
}

export const supplierStoreOf = /* @__PURE__ */ service((runtime) => new SupplierStore(tableOf(runtime)));

/** The codes of the suppliers an organization is connected to now: whose hotel codes its reads show. */
export async function connectedSupplierCodes(runtime: Runtime, organizationId: string): Promise<string[]> {
  return (await supplierStoreOf(runtime).listConnections(organizationId)).map((connection) => connection.supplierCode);
}
