/**
 * One correlation id follows the work a partner starts: the partner's X-Request-Id (or the
 * gateway's request id) is answered back, and every log line of the work it causes names it: the
 * request, the chunk workers, the domain event's relay and the webhook delivery. The same work
 * writes its metrics as embedded-metric-format lines.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { logLinesDuring } from '../support/log-lines';
import { startTestApi } from '../support/test-api';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';

const REFERENCE = { hotels: 200, seed: 8 };
const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
await seedReferenceInventory(api.runtime, REFERENCE);

const receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
afterAll(() => void receiver.close());

function partnerCsv(rows: number): string {
  const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })].slice(0, rows);
  return [
    formatCsvRow(['id', 'name', 'city', 'country', 'lat', 'lon']),
    ...hotels.map((hotel, i) => formatCsvRow([`P${i}`, hotel.name, hotel.city, hotel.country, hotel.lat, hotel.lon])),
  ].join('\n');
}

describe('the correlation id', () => {
  it('follows a job from POST /mapping through its chunk workers to the webhook delivery, whose metrics are counted', async () => {
    const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
    const subscription = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['MAPPING_COMPLETED'] },
    });
    assert.equal(subscription.status, 201, subscription.text);
    const form = new FormData();
    form.append('name', 'Traced');
    form.append('file', new Blob([partnerCsv(40)], { type: 'text/csv' }), 'hotels.csv');
    const inventory = await api.request('POST', '/api/v1/partner-inventories', { as: partner, body: form });
    assert.equal(inventory.status, 201, inventory.text);

    const correlationId = 'partner-trace-0042';
    let jobId = '';
    const lines = await logLinesDuring(async () => {
      const created = await api.request('POST', '/api/v1/mapping', {
        as: partner,
        headers: { 'X-Request-Id': correlationId },
        json: { partnerInventoryId: inventory.body.partnerInventoryId },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('x-request-id'), correlationId, 'answered back');
      jobId = created.body.mappingJobId;
      await api.messaging.idle();
    }, 'info');

    assert.equal((await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body.status, 'COMPLETED');
    const traced = lines.filter((line) => line.correlationId === correlationId);
    const messages = traced.map((line) => line.message);
    assert.ok(
      traced.some((line) => line.message === 'request' && line.route === '/api/v1/mapping'),
      JSON.stringify(messages),
    );
    assert.ok(
      traced.some((line) => line.message === 'chunk mapped' && line.mappingJobId === jobId),
      JSON.stringify(messages),
    );
    const attempt = traced.find((line) => line.message === 'webhook attempt');
    assert.ok(attempt, JSON.stringify(messages));
    assert.equal(attempt.status, 'SUCCEEDED');
    assert.ok(traced.every((line) => line.service === 'hotel-mapping' && typeof line.timestamp === 'string'));
    // Each line names the function that wrote it, though the local runtime runs them all in one process at once.
    const functionOf = (message: string) => new Set(traced.filter((line) => line.message === message).map((line) => line.function_name));
    assert.deepEqual(functionOf('request'), new Set(['mapping-jobs/create']));
    assert.deepEqual(functionOf('chunk mapped'), new Set(['mapping-jobs/chunk']));
    assert.deepEqual(functionOf('webhook attempt'), new Set(['webhooks/delivery']));

    // Kept with the delivery, for retries the scheduler queues without message attributes.
    const deliveries = await api.request('GET', `/api/v1/webhook-subscriptions/${subscription.body.id}/deliveries`, { as: partner });
    assert.equal(deliveries.body.deliveries[0].status, 'SUCCEEDED');

    // The same work's metrics, as CloudWatch embedded metric format lines: no organization or job among their dimensions.
    const metrics = lines.filter((line) => line._aws !== undefined);
    const valueOf = (name: string, dimensions: Record<string, string> = {}) =>
      metrics
        .filter((line) => name in line && Object.entries(dimensions).every(([key, value]) => line[key] === value))
        .reduce((sum, line) => sum + Number(line[name]), 0);
    assert.equal(valueOf('JobsCreated', { mode: 'STANDARD' }), 1);
    assert.equal(valueOf('JobsCompleted'), 1);
    assert.ok(valueOf('JobDuration') >= 0 && metrics.some((line) => 'JobDuration' in line));
    assert.ok(metrics.some((line) => 'ChunkDuration' in line));
    assert.equal(valueOf('RowsMapped'), 40);
    assert.ok(valueOf('RowsMapped', { status: 'MATCHED', method: 'FUZZY' }) > 30);
    assert.equal(valueOf('ReservationsSettled'), 1);
    assert.equal(valueOf('WebhookAttempts', { outcome: 'succeeded' }), 1);
    for (const line of metrics) {
      const declared = (line._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] }).CloudWatchMetrics[0]!;
      assert.equal(declared.Namespace, 'HotelMapping');
      assert.ok(
        declared.Dimensions.flat().every((dimension) => ['service', 'mode', 'status', 'method', 'outcome'].includes(dimension)),
        JSON.stringify(declared),
      );
    }
  });

  it('names, on each line, the function and the request that wrote it, among requests served at once', async () => {
    const partner = await api.newOrganization();
    const routes = ['/api/v1/suppliers', '/api/v1/suppliers/my-suppliers', '/api/v1/partner-inventories', '/api/v1/mapping'];
    const handlers = ['suppliers/list', 'suppliers/my-suppliers', 'partner-inventories/list', 'mapping-jobs/list'];
    const lines = await logLinesDuring(async () => {
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          api.request('GET', routes[index % routes.length]!, { as: partner, headers: { 'X-Request-Id': `concurrent-${index}` } }),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(24).fill(200),
      );
    }, 'info');
    for (let index = 0; index < 24; index++) {
      const ofRequest = lines.filter((line) => line.correlationId === `concurrent-${index}`);
      assert.ok(ofRequest.length > 0, `request ${index} logged`);
      assert.deepEqual(
        new Set(ofRequest.map((line) => line.function_name)),
        new Set([handlers[index % handlers.length]]),
        `request ${index}`,
      );
      assert.equal(new Set(ofRequest.map((line) => line.function_request_id)).size, 1, `request ${index}: one invocation`);
    }
  });

  it("answers the gateway's request id when the partner sends none, and refuses a malformed one", async () => {
    const partner = await api.newOrganization();
    const plain = await api.request('GET', '/api/v1/suppliers', { as: partner });
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('x-request-id') ?? '', /^\S+$/);

    for (const bad of ['has spaces in it', 'x'.repeat(129)]) {
      const refused = await api.request('GET', '/api/v1/suppliers', { as: partner, headers: { 'X-Request-Id': bad } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, /X-Request-Id must be 1 to 128 visible ASCII characters/);
    }
  });
});
