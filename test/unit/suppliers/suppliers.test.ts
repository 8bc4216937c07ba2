import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DomainError } from '../../../shared/platform/errors';
import type { Organization } from '../../../shared/organizations/organization';
import {
  connectSupplier,
  disconnectSupplier,
  remainingSupplierBudget,
  type ConnectOutcome,
  type Supplier,
  type SupplierConnection,
  type SupplierPorts,
} from '../../../shared/suppliers/suppliers';

const now = new Date('2026-03-01T12:00:00Z');
const supplier = (id: string, isActive = true): Supplier => ({ id, code: id.toUpperCase(), name: id, description: '', isActive });

/** Ports over plain maps: the rules, not the storage, are under test here. */
function ports(options: { catalogue: Supplier[]; allowRate?: boolean; outcome?: ConnectOutcome }) {
  const connections = new Map<string, SupplierConnection>();
  const everConnected = new Set<string>();
  const calls: string[] = [];
  const value: SupplierPorts = {
    catalogue: { get: async (id) => options.catalogue.find((s) => s.id === id) },
    connections: {
      getConnection: async (_org, id) => connections.get(id),
      hasEverConnected: async (_org, id) => everConnected.has(id),
      connect: async (_org, connection, budget) => {
        calls.push(`connect:${connection.supplierId}:${budget.firstTime}`);
        if (options.outcome) return options.outcome;
        connections.set(connection.supplierId, connection);
        everConnected.add(connection.supplierId);
        return 'connected';
      },
      disconnect: async (_org, id) => connections.delete(id),
    },
    rateLimiter: { tryConsume: async () => options.allowRate ?? true },
  };
  return { value, connections, everConnected, calls };
}

const organization = (suppliersEverConnected: number, planType: Organization['planType'] = 'FREE'): Organization => ({
  id: 'org',
  name: 'Org',
  planType,
  createdAt: now.toISOString(),
  suppliersEverConnected,
});

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError);
    return error;
  }
  assert.fail('expected a failure');
}

describe('supplier budget', () => {
  it("is the plan's maxSuppliers minus the suppliers ever connected, never negative", () => {
    assert.equal(remainingSupplierBudget(organization(0)), 2);
    assert.equal(remainingSupplierBudget(organization(2)), 0);
    assert.equal(remainingSupplierBudget(organization(7)), 0);
    assert.equal(remainingSupplierBudget(organization(3, 'SUBSCRIPTION')), 7);
  });
});

describe('connectSupplier', () => {
  const input = (org: Organization, supplierId: string) => ({ organization: org, supplierId, connectionId: 'c-1', now });

  it('connects a new supplier as a first-time connection', async () => {
    const { value, calls } = ports({ catalogue: [supplier('a')] });
    const result = await connectSupplier(value, input(organization(0), 'a'));
    assert.equal(result.created, true);
    assert.deepEqual(result.connection, {
      id: 'c-1',
      supplierId: 'a',
      supplierCode: 'A',
      supplierName: 'a',
      description: '',
      logoUrl: undefined,
      connectedAt: now.toISOString(),
    });
    assert.deepEqual(calls, ['connect:a:true']);
  });

  it('returns the existing connection without writing when already connected', async () => {
    const { value, calls } = ports({ catalogue: [supplier('a')] });
    const first = await connectSupplier(value, input(organization(0), 'a'));
    const second = await connectSupplier(value, { ...input(organization(1), 'a'), connectionId: 'c-2' });
    assert.equal(second.created, false);
    assert.deepEqual(second.connection, first.connection);
    assert.equal(calls.length, 1);
  });

  it('reconnects a supplier connected before without spending budget, even with none left', async () => {
    const { value, everConnected, calls } = ports({ catalogue: [supplier('a')] });
    everConnected.add('a');
    const result = await connectSupplier(value, input(organization(2), 'a'));
    assert.equal(result.created, true);
    assert.deepEqual(calls, ['connect:a:false']);
  });

  it('refuses unknown and inactive suppliers as not found', async () => {
    const { value } = ports({ catalogue: [supplier('off', false)] });
    assert.equal((await failure(connectSupplier(value, input(organization(0), 'missing')))).kind, 'not_found');
    assert.equal((await failure(connectSupplier(value, input(organization(0), 'off')))).kind, 'not_found');
  });

  it('refuses a new supplier when the budget is spent, and when the store finds it spent', async () => {
    const spent = ports({ catalogue: [supplier('a')] });
    assert.equal((await failure(connectSupplier(spent.value, input(organization(2), 'a')))).kind, 'limit_reached');
    assert.deepEqual(spent.calls, []);
    const raced = ports({ catalogue: [supplier('a')], outcome: 'limit_reached' });
    assert.equal((await failure(connectSupplier(raced.value, input(organization(1), 'a')))).kind, 'limit_reached');
  });

  it('refuses when the rate limit is used up, before writing', async () => {
    const { value, calls } = ports({ catalogue: [supplier('a')], allowRate: false });
    assert.equal((await failure(connectSupplier(value, input(organization(0), 'a')))).kind, 'rate_limited');
    assert.deepEqual(calls, []);
  });
});

describe('disconnectSupplier', () => {
  it('removes a connection, and reports not found when there is none', async () => {
    const { value, connections } = ports({ catalogue: [supplier('a')] });
    await connectSupplier(value, { organization: organization(0), supplierId: 'a', connectionId: 'c', now });
    await disconnectSupplier(value, { organizationId: 'org', supplierId: 'a', now });
    assert.equal(connections.size, 0);
    assert.equal((await failure(disconnectSupplier(value, { organizationId: 'org', supplierId: 'a', now }))).kind, 'not_found');
  });

  it('is rate limited', async () => {
    const { value, connections } = ports({ catalogue: [supplier('a')], allowRate: false });
    connections.set('a', { id: 'c', supplierId: 'a', supplierCode: 'A', supplierName: 'a', connectedAt: now.toISOString() });
    assert.equal((await failure(disconnectSupplier(value, { organizationId: 'org', supplierId: 'a', now }))).kind, 'rate_limited');
    assert.equal(connections.size, 1);
  });
});
