/**
 * Each organization's own share of the API a second, over all its credentials, and of each method
 * with a throttle of its own: past either, 429 with Retry-After, while another organization's
 * requests in the same second are answered as always; the next second, it is served again. (The test's clock stands still: every request here falls in
 * one second until it is moved on.)
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { partnerInventoryRoutes } from '../../shared/partner-inventories/routes';
import { ORGANIZATION_RATE_SETTINGS, organizationRequestShares } from '../../shared/platform/rate-limits';
import { startTestApi, type Caller } from '../support/test-api';

const SHARE = 5;
const api = await startTestApi({ config: { variables: ORGANIZATION_RATE_SETTINGS.environment({ requestsPerSecond: String(SHARE) }) } });

const mySuppliers = (as: Caller) => api.request('GET', '/api/v1/suppliers/my-suppliers', { as });
const uploadRoute = partnerInventoryRoutes.createPartnerInventoryUpload;
const startUpload = (as: Caller) =>
  api.request('POST', uploadRoute.path, { as, json: { name: 'Hotels', fileName: 'hotels.csv', sizeBytes: 1_000 } });

async function bearerTokenOf(caller: Caller): Promise<string> {
  const clientId = caller.apiKey.split('_').slice(0, 2).join('_');
  const response = await api.request('POST', '/api/v1/auth/token', {
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${caller.apiKey}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  assert.equal(response.status, 200, response.text);
  return response.body.access_token;
}

describe("an organization's share of the API", () => {
  it('answers 429 past it, over all its credentials, and does not slow another organization', async () => {
    const busy = await api.newOrganization();
    const quiet = await api.newOrganization();
    const token = await bearerTokenOf(busy);

    const flood = await Promise.all(Array.from({ length: SHARE + 3 }, () => mySuppliers(busy)));
    assert.deepEqual(flood.map((answer) => answer.status).sort(), [...Array(SHARE).fill(200), ...Array(3).fill(429)]);
    const refused = flood.find((answer) => answer.status === 429)!;
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.deepEqual(refused.body, {
      error: 'Too Many Requests',
      message: `Your organization sent more than ${SHARE} requests this second, over all its credentials. Retry in a second.`,
    });
    // Its other credential shares the same count.
    assert.equal(
      (await api.request('GET', '/api/v1/suppliers/my-suppliers', { headers: { authorization: `Bearer ${token}` } })).status,
      429,
    );
    // A method with a share of its own is refused for the organization's share, untouched as it is.
    assert.equal((await startUpload(busy)).body.message, refused.body.message);

    // Another organization, in the same second, is answered as always: its whole share.
    const meanwhile = await Promise.all(Array.from({ length: SHARE }, () => mySuppliers(quiet)));
    assert.deepEqual(
      meanwhile.map((answer) => answer.status),
      Array(SHARE).fill(200),
    );

    api.clock.advance(1_000);
    assert.equal((await mySuppliers(busy)).status, 200, 'the next second, served again');
  });
});

describe("an organization's share of a throttled method", () => {
  const routeShare = organizationRequestShares(uploadRoute, api.config).route!.perSecond;

  it('answers 429 past it, leaves the rest of the API to the organization, and leaves the method to others', async () => {
    api.clock.advance(1_000);
    const busy = await api.newOrganization();
    const quiet = await api.newOrganization();

    const flood = await Promise.all(Array.from({ length: routeShare + 2 }, () => startUpload(busy)));
    assert.deepEqual(flood.map((answer) => answer.status).sort(), [...Array(routeShare).fill(201), 429, 429]);
    const refused = flood.find((answer) => answer.status === 429)!;
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(
      refused.body.message,
      `Your organization sent more than ${routeShare} POST ${uploadRoute.path} requests this second, over all its credentials. Retry in a second.`,
    );
    const inventories = await api.request('GET', '/api/v1/partner-inventories', { as: busy });
    assert.equal(inventories.status, 200, 'its other methods are still served');
    assert.equal(inventories.body.inventories.length, routeShare, 'a refused request created nothing');

    assert.equal((await startUpload(quiet)).status, 201, 'another organization is served in the same second');
    api.clock.advance(1_000);
    assert.equal((await startUpload(busy)).status, 201, 'the next second, served again');
  });
});
