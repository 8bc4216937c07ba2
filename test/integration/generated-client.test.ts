/**
 * A partner's generated client: types generated from the served OpenAPI document with
 * openapi-typescript (test/generated-client/generate.ts), a typed script of the whole partner flow
 * (test/generated-client/flow.ts) compiled with `tsc --strict` and no casts, then run against the
 * local API. Every answer it gets is also checked against the document (test-api.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { ROOT } from '../support/npm-start';
import { startTestApi } from '../support/test-api';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { EVENT_CATALOGUE } from '../../shared/events';

const CLIENT = join(ROOT, 'test/generated-client');
const REFERENCE = { hotels: 200, seed: 11 };
const PARTNER_ROWS = 45;

const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
// The receiver checks the signed timestamp against its own clock, within five minutes.
api.clock.set(new Date());
await seedReferenceInventory(api.runtime, REFERENCE);
// Queued work runs in the background, as under `npm start`: the flow only polls, as a partner does.
api.messaging.start();
afterAll(() => api.messaging.stop());

const scratch = mkdtempSync(join(tmpdir(), 'generated-client-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface WebhookReceiver {
  url: string;
  next(): Promise<{ headers: Record<string, string>; body: string }>;
}

/**
 * The flow script, loaded once its types are generated: imported by a path the project's own
 * typecheck does not follow (the script compiles against the generated types, which only this
 * test writes; it is compiled with the client package's own tsc below).
 */
type PartnerFlow = (options: { baseUrl: string; apiKey: string; hotelsCsv: string; receiver: WebhookReceiver }) => Promise<
  Record<string, unknown> & {
    reviewed: { decision: string; status: string };
    foundMatch: { jobHotel: string | null; foundHotel: string | null; from: string; refusedBecause: string; charged: number };
    subscriptionPrice: { amount: number; currency: string };
  }
>;
async function loadPartnerFlow(): Promise<PartnerFlow> {
  const flowFile = join(CLIENT, 'flow.ts');
  return ((await import(flowFile)) as { partnerFlow: PartnerFlow }).partnerFlow;
}

/** A partner's receiver on loopback: hands out the requests it gets, in order. */
async function webhookReceiver(): Promise<WebhookReceiver & { close(): void }> {
  const waiting: ((request: { headers: Record<string, string>; body: string }) => void)[] = [];
  const arrived: { headers: Record<string, string>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.writeHead(204).end();
      const received = { headers: singleValued(request.headers), body };
      const next = waiting.shift();
      if (next) next(received);
      else arrived.push(received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hotel-mapping`,
    next: () => new Promise((resolve) => (arrived.length ? resolve(arrived.shift()!) : waiting.push(resolve))),
    close: () => void server.close(),
  };
}

function singleValued(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
}

/** Partner rows: reference hotels as they are, and a few that exist nowhere. */
function hotelsCsv(): string {
  const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })].slice(0, PARTNER_ROWS - 5);
  const rows = hotels.map((hotel, i) => [`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]);
  for (let i = 0; i < 5; i++) rows.push([`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]);
  return [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join('\n');
}

function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: CLIENT, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${[command, ...args].join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

describe('a client generated from the OpenAPI document', () => {
  it('generates, compiles with tsc --strict, and completes the partner flow against the local API', async () => {
    const document = await fetch(`${api.baseUrl}/api/v1/openapi.json`);
    assert.equal(document.status, 200);
    const documentFile = join(scratch, 'openapi.json');
    writeFileSync(documentFile, await document.text());
    mkdirSync(join(CLIENT, 'generated'), { recursive: true });
    run(process.execPath, ['--import', 'tsx', 'generate.ts', documentFile, 'generated/api.d.ts']);
    // The partner's own compiler (the client package's TypeScript), strict.
    run(process.execPath, [join(CLIENT, 'node_modules/typescript/bin/tsc'), '--strict', '-p', '.']);

    const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
    const receiver = await webhookReceiver();
    try {
      const partnerFlow = await loadPartnerFlow();
      const outcome = await partnerFlow({ baseUrl: api.baseUrl, apiKey: partner.apiKey, hotelsCsv: hotelsCsv(), receiver });
      assert.equal(outcome.jobStatus, 'COMPLETED');
      assert.equal(outcome.resultRows, PARTNER_ROWS);
      assert.equal(outcome.pages, Math.ceil(PARTNER_ROWS / 10));
      assert.ok(outcome.connectedSupplier);
      assert.equal(outcome.reviewed.status, outcome.reviewed.decision === 'MATCH' ? 'MATCHED' : 'UNMATCHED');
      assert.equal(outcome.exportedLines, PARTNER_ROWS + 1, 'a header and one line per row');
      const { jobHotel, foundHotel, ...found } = outcome.foundMatch;
      assert.ok(foundHotel);
      assert.equal(foundHotel, jobHotel, "find-match answers the job's hotel for the job's row");
      assert.deepEqual(found, { from: 'ENGINE', refusedBecause: 'name is missing', charged: 50 });
      assert.equal(outcome.mappingsUsedToday, PARTNER_ROWS + 50, "the job's rows, and the find-match request's least charge");
      assert.equal(outcome.webhookEventType, 'MAPPING_COMPLETED');
      assert.equal(outcome.deliveryStatus, 'SUCCEEDED');
      assert.equal(outcome.deliveryAttempts, 1);
      // The test event's sample job, read through the payload's generated type.
      assert.equal(outcome.deliveredJobId, EVENT_CATALOGUE.MAPPING_COMPLETED.sample('').mappingJobId);
      assert.deepEqual(outcome.subscriptionPrice, { amount: 4_900, currency: 'EUR' });
    } finally {
      receiver.close();
    }
  });
});
