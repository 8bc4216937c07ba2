import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { SUPPLIER_CATALOGUE } from '../../infra/local/seed';
import { SUPPLIER_CHANGE_RATE_LIMIT } from '../../shared/suppliers/suppliers';
import { startTestApi, type Caller } from '../support/test-api';
import { organizationStoreOf } from '../../shared/organizations';

const active = SUPPLIER_CATALOGUE.filter((s) => s.isActive);
const inactive = SUPPLIER_CATALOGUE.find((s) => !s.isActive)!;
const [first, second, third] = active as [(typeof active)[0], (typeof active)[0], (typeof active)[0]];
const UNKNOWN_ID = '6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const api = await startTestApi();

const connect = (as: Caller, supplierId: string) => api.request('POST', `/api/v1/suppliers/${supplierId}/connect`, { as });
const disconnect = (as: Caller, supplierId: string) => api.request('DELETE', `/api/v1/suppliers/${supplierId}/disconnect`, { as });
const mySuppliers = (as: Caller) => api.request('GET', '/api/v1/suppliers/my-suppliers', { as });

describe('GET /api/v1/suppliers', () => {
  it('lists only active suppliers, by name, with a total, without a credential', async () => {
    const { status, body } = await api.request('GET', '/api/v1/suppliers');
    assert.equal(status, 200);
    assert.equal(body.total, active.length);
    assert.equal(body.suppliers.length, active.length);
    assert.ok(body.suppliers.every((s: { isActive: boolean }) => s.isActive));
    assert.ok(!body.suppliers.some((s: { id: string }) => s.id === inactive.id));
    const names = body.suppliers.map((s: { name: string }) => s.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    assert.deepEqual(Object.keys(body.suppliers[0]).sort(), ['code', 'description', 'id', 'isActive', 'logoUrl', 'name']);
  });
});

describe('connecting and disconnecting', () => {
  it('connects (201), lists the connection and spends budget', async () => {
    const caller = await api.newOrganization();
    const before = await mySuppliers(caller);
    assert.equal(before.status, 200);
    assert.deepEqual(before.body, { suppliers: [], total: 0, remainingSupplierBudget: 2, maxSuppliers: 2 });

    const { status, body } = await connect(caller, first.id);
    assert.equal(status, 201);
    assert.match(body.id, /^[0-9a-f-]{36}$/);
    assert.equal(body.supplierId, first.id);
    assert.equal(body.supplierCode, first.code);
    assert.equal(body.supplierName, first.name);
    assert.equal(body.connectedAt, api.clock.now().toISOString());

    const after = await mySuppliers(caller);
    assert.deepEqual(after.body.suppliers, [{ id: first.id, code: first.code, name: first.name, connectedAt: body.connectedAt }]);
    assert.equal(after.body.total, 1);
    assert.equal(after.body.remainingSupplierBudget, 1);
  });

  it('connecting an already-connected supplier changes nothing (200, same connection)', async () => {
    const caller = await api.newOrganization();
    const created = await connect(caller, first.id);
    api.clock.advance(1000);
    const again = await connect(caller, first.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, created.body);
    assert.equal((await mySuppliers(caller)).body.remainingSupplierBudget, 1);
  });

  it('answers 404 for an unknown or inactive supplier and 400 for a malformed id, storing nothing', async () => {
    const caller = await api.newOrganization();
    const unknown = await connect(caller, UNKNOWN_ID);
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.body).sort(), ['error', 'message']);
    assert.equal(unknown.body.error, 'Not Found');
    assert.equal((await connect(caller, inactive.id)).status, 404);
    const malformed = await connect(caller, 'not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /supplierId/);
    assert.deepEqual((await mySuppliers(caller)).body, { suppliers: [], total: 0, remainingSupplierBudget: 2, maxSuppliers: 2 });
  });

  it("refuses a new distinct supplier once the plan's maxSuppliers have ever been connected (400)", async () => {
    const caller = await api.newOrganization({ planType: 'FREE' });
    assert.equal((await connect(caller, first.id)).status, 201);
    assert.equal((await connect(caller, second.id)).status, 201);
    const refused = await connect(caller, third.id);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'Bad Request');
    assert.match(refused.body.message, /2 distinct suppliers/);

    // Disconnecting does not give the slot back...
    assert.equal((await disconnect(caller, second.id)).status, 204);
    assert.equal((await connect(caller, third.id)).status, 400);
    const listed = await mySuppliers(caller);
    assert.equal(listed.body.total, 1);
    assert.equal(listed.body.remainingSupplierBudget, 0);
    // ...but reconnecting a supplier connected before costs nothing.
    assert.equal((await connect(caller, second.id)).status, 201);
    assert.equal((await mySuppliers(caller)).body.total, 2);
  });

  it('a larger plan has a larger budget', async () => {
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const { body } = await mySuppliers(caller);
    assert.equal(body.maxSuppliers, 10);
    assert.equal(body.remainingSupplierBudget, 10);
  });

  it('concurrent connects never exceed the budget', async () => {
    const caller = await api.newOrganization({ planType: 'FREE' });
    const results = await Promise.all(active.slice(0, 6).map((s) => connect(caller, s.id)));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses.filter((s) => s === 201).length, 2);
    assert.ok(statuses.every((s) => s === 201 || s === 400));
    const listed = await mySuppliers(caller);
    assert.equal(listed.body.total, 2);
    assert.equal(listed.body.remainingSupplierBudget, 0);
    const organization = await organizationStoreOf(api.runtime).get(caller.organization.id);
    assert.equal(organization?.suppliersEverConnected, 2);
  });

  it('disconnects (204, empty body) and answers 404 when not connected', async () => {
    const caller = await api.newOrganization();
    await connect(caller, first.id);
    const response = await disconnect(caller, first.id);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await mySuppliers(caller)).body.total, 0);
    const again = await disconnect(caller, first.id);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, 'Not Found');
    assert.equal((await disconnect(caller, UNKNOWN_ID)).status, 404);
    assert.equal((await disconnect(caller, 'nope')).status, 400);
  });

  it('rate limits connects and disconnects together per organization (400), per window', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const other = await api.newOrganization({ planType: 'ENTERPRISE' });
    api.clock.set('2026-11-22T11:00:00.000Z');
    const { limit } = SUPPLIER_CHANGE_RATE_LIMIT;
    for (let call = 0; call < limit; call++) {
      const supplier = active[call % 2]!;
      const response = call % 4 < 2 ? await connect(caller, supplier.id) : await disconnect(caller, supplier.id);
      assert.ok([201, 204].includes(response.status), `call ${call} answered ${response.status}`);
    }
    const limited = await connect(caller, third.id);
    assert.equal(limited.status, 400);
    assert.match(limited.body.message, /Rate limit/);
    assert.ok(!(await mySuppliers(caller)).body.suppliers.some((s: { id: string }) => s.id === third.id));
    // Another organization has its own allowance.
    assert.equal((await connect(other, third.id)).status, 201);
    // The next window starts afresh.
    api.clock.advance(SUPPLIER_CHANGE_RATE_LIMIT.windowSeconds * 1000);
    assert.equal((await connect(caller, third.id)).status, 201);
  });

  it('requires a credential', async () => {
    assert.equal((await api.request('POST', `/api/v1/suppliers/${first.id}/connect`)).status, 401);
    assert.equal((await api.request('DELETE', `/api/v1/suppliers/${first.id}/disconnect`)).status, 401);
    assert.equal((await api.request('GET', '/api/v1/suppliers/my-suppliers')).status, 401);
    assert.equal((await api.request('GET', '/api/v1/suppliers/requests')).status, 401);
  });
});

describe('tenant isolation of connections', () => {
  it("one organization neither sees nor changes another's connections", async () => {
    const alpha = await api.newOrganization();
    const beta = await api.newOrganization();
    await connect(alpha, first.id);
    assert.equal((await mySuppliers(beta)).body.total, 0);
    assert.equal((await disconnect(beta, first.id)).status, 404);
    assert.equal((await mySuppliers(alpha)).body.total, 1);
  });
});
