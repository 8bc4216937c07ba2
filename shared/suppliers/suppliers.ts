/**
 * Supplier catalogue, connections and requests for new suppliers.
 *
 * Rules (spec "Suppliers"):
 * - An organization may connect at most its plan's `maxSuppliers` distinct suppliers, counted over
 *   every supplier it has ever connected: disconnecting does not give the slot back.
 * - Connecting an already-connected supplier changes nothing; reconnecting a supplier connected
 *   before does not use budget.
 * - Connect and disconnect share a per-organization rate limit (SUPPLIER_CHANGE_RATE_LIMIT).
 * - Disconnecting keeps every mapping result made with the supplier.
 */
import { limitReached, notFound, rateLimited } from '../platform/errors';
import { type Organization, PLAN_LIMITS } from '../organizations';
import type { RateLimiter } from '../platform/rate-limits';

export interface Supplier {
  id: string;
  code: string;
  name: string;
  description: string;
  logoUrl?: string;
  isActive: boolean;
}

export interface SupplierConnection {
  /** UUID of the connection itself. */
  id: string;
  supplierId: string;
  supplierCode: string;
  supplierName: string;
  description?: string;
  logoUrl?: string;
  connectedAt: string;
}

export const SUPPLIER_REQUEST_STATUSES = ['pending', 'in_review', 'completed', 'rejected'] as const;
export type SupplierRequestStatus = (typeof SUPPLIER_REQUEST_STATUSES)[number];

export interface SupplierRequest {
  id: string;
  supplierName: string;
  description?: string;
  contactEmail?: string;
  status: SupplierRequestStatus;
  submittedAt: string;
  file: {
    name: string;
    format: string;
    sizeBytes: number;
    /** Data rows read from the file. */
    rowCount: number;
    /** Object-store key; never returned to partners. */
    key: string;
  };
}

/** Connect and disconnect calls each organization may make, together, per window. */
export const SUPPLIER_CHANGE_RATE_LIMIT = { bucket: 'supplier-changes', limit: 10, windowSeconds: 60 } as const;

export interface SupplierCatalogue {
  get(supplierId: string): Promise<Supplier | undefined>;
}

export type ConnectOutcome = 'connected' | 'already_connected' | 'limit_reached';

export interface ConnectionRepository {
  getConnection(organizationId: string, supplierId: string): Promise<SupplierConnection | undefined>;
  hasEverConnected(organizationId: string, supplierId: string): Promise<boolean>;
  /**
   * Stores the connection atomically. For a supplier never connected before it also records it
   * as ever connected and counts it on the organization, failing with `limit_reached` once that
   * count has reached `maxSuppliers`.
   */
  connect(
    organizationId: string,
    connection: SupplierConnection,
    budget: { firstTime: boolean; maxSuppliers: number },
  ): Promise<ConnectOutcome>;
  /** False when the organization was not connected to the supplier. */
  disconnect(organizationId: string, supplierId: string): Promise<boolean>;
}

export interface SupplierPorts {
  catalogue: SupplierCatalogue;
  connections: ConnectionRepository;
  rateLimiter: RateLimiter;
}

export function remainingSupplierBudget(organization: Organization): number {
  return Math.max(0, PLAN_LIMITS[organization.planType].maxSuppliers - organization.suppliersEverConnected);
}

export async function connectSupplier(
  ports: SupplierPorts,
  input: { organization: Organization; supplierId: string; connectionId: string; now: Date },
): Promise<{ connection: SupplierConnection; created: boolean }> {
  const { organization, supplierId, now } = input;
  const supplier = await ports.catalogue.get(supplierId);
  if (!supplier?.isActive) throw notFound(`No supplier has the id ${supplierId}.`);

  const existing = await ports.connections.getConnection(organization.id, supplierId);
  if (existing) return { connection: existing, created: false };

  const maxSuppliers = PLAN_LIMITS[organization.planType].maxSuppliers;
  const firstTime = !(await ports.connections.hasEverConnected(organization.id, supplierId));
  if (firstTime && remainingSupplierBudget(organization) === 0) throw supplierLimitReached(maxSuppliers);
  await consumeRate(ports, organization.id, now);

  const connection: SupplierConnection = {
    id: input.connectionId,
    supplierId: supplier.id,
    supplierCode: supplier.code,
    supplierName: supplier.name,
    description: supplier.description,
    logoUrl: supplier.logoUrl,
    connectedAt: now.toISOString(),
  };
  const outcome = await ports.connections.connect(organization.id, connection, { firstTime, maxSuppliers });
  if (outcome === 'limit_reached') throw supplierLimitReached(maxSuppliers);
  if (outcome === 'already_connected') {
    // A concurrent call connected it first; answer with what is stored.
    const stored = await ports.connections.getConnection(organization.id, supplierId);
    if (stored) return { connection: stored, created: false };
  }
  return { connection, created: true };
}

export async function disconnectSupplier(
  ports: Pick<SupplierPorts, 'connections' | 'rateLimiter'>,
  input: { organizationId: string; supplierId: string; now: Date },
): Promise<void> {
  const { organizationId, supplierId, now } = input;
  const notConnected = () => notFound(`Your organization is not connected to the supplier ${supplierId}.`);
  if (!(await ports.connections.getConnection(organizationId, supplierId))) throw notConnected();
  await consumeRate(ports, organizationId, now);
  if (!(await ports.connections.disconnect(organizationId, supplierId))) throw notConnected();
}

async function consumeRate(ports: Pick<SupplierPorts, 'rateLimiter'>, organizationId: string, now: Date) {
  const rule = SUPPLIER_CHANGE_RATE_LIMIT;
  if (!(await ports.rateLimiter.tryConsume(organizationId, rule, now))) {
    throw rateLimited(
      `Rate limit exceeded: at most ${rule.limit} supplier connects and disconnects per ${rule.windowSeconds} seconds. Try again shortly.`,
    );
  }
}

function supplierLimitReached(maxSuppliers: number) {
  return limitReached(
    `Your plan allows ${maxSuppliers} distinct suppliers and all of them have been used. Upgrade your plan to connect more.`,
  );
}
