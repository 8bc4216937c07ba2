/**
 * The partner flow, written as a partner writes it: against types generated from the API's
 * OpenAPI document (generate.ts), through openapi-fetch, with no cast anywhere. It compiles with
 * `tsc --strict` and runs against the local API (test/integration/generated-client.test.ts):
 * suppliers, export format, inventory upload, a job, its results page by page, a review, a
 * find-match, an export, billing (plan prices as numbers), a webhook subscription with a test event checked by its signature, and the
 * delivery history.
 */
import createClient from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, paths } from './generated/api';

type MappingResult = components['schemas']['MappingResult'];
type ReviewDecision = NonNullable<paths['/api/v1/mapping/{jobId}/reviews']['post']['requestBody']>['content']['application/json'];

/** Where the partner's webhook receiver listens, and the next request it gets. */
export interface WebhookReceiver {
  url: string;
  next(): Promise<{ headers: Record<string, string>; body: string }>;
}

export interface FlowOutcome {
  connectedSupplier: string;
  jobStatus: string;
  resultRows: number;
  pages: number;
  reviewed: { partnerHotelId: string; decision: 'MATCH' | 'NO_MATCH'; status: string };
  /** Find-match's answer for a hotel the job mapped, beside the job's, and its reason for refusing a hotel without a name. */
  foundMatch: { jobHotel: string | null; foundHotel: string | null; from: string; refusedBecause: string; charged: number };
  exportedLines: number;
  mappingsUsedToday: number;
  webhookEventType: string;
  deliveryStatus: string;
  deliveryAttempts: number;
  /** Read from the delivery's payload as its generated type, narrowed by the event type. */
  deliveredJobId: string;
  /** The paid plan's price as a number in minor units, with its currency. */
  subscriptionPrice: { amount: number; currency: string };
}

/** The answer's data, or an error that says what the API answered. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(`${response.url}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, seconds = 60): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function partnerFlow(options: {
  baseUrl: string;
  apiKey: string;
  hotelsCsv: string;
  receiver: WebhookReceiver;
}): Promise<FlowOutcome> {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { 'X-API-Key': options.apiKey } });

  const suppliers = await ok(client.GET('/api/v1/suppliers'));
  const supplier = suppliers.suppliers[0];
  if (!supplier) throw new Error('the catalogue lists no supplier');
  const connection = await ok(client.POST('/api/v1/suppliers/{supplierId}/connect', { params: { path: { supplierId: supplier.id } } }));

  await ok(
    client.PUT('/api/v1/export-format', {
      body: {
        format: 'csv',
        includeFields: ['partnerHotelId', 'referenceHotelId', 'status', 'score'],
        includeHeader: true,
        compression: 'none',
      },
    }),
  );

  // What FormData.append('file', blob) sends: no file name, so the part's type names the format.
  const inventory = await ok(
    client.POST('/api/v1/partner-inventories', {
      body: { name: 'Lisbon hotels', file: new Blob([options.hotelsCsv], { type: 'text/csv' }) },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append('name', body.name);
        form.append('file', body.file);
        return form;
      },
    }),
  );

  const created = await ok(
    client.POST('/api/v1/mapping', {
      params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
      body: { partnerInventoryId: inventory.partnerInventoryId, mode: 'STANDARD' },
    }),
  );
  const jobPath = { params: { path: { jobId: created.mappingJobId } } };
  const job = await poll(
    () => ok(client.GET('/api/v1/mapping/{jobId}', jobPath)),
    (view) => view.status !== 'PENDING' && view.status !== 'RUNNING',
  );

  const results: MappingResult[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await ok(
      client.GET('/api/v1/mapping/{jobId}/results', { params: { path: { jobId: created.mappingJobId }, query: { limit: 10, cursor } } }),
    );
    results.push(...page.results);
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor);

  // Confirm a proposal the engine left for review (a candidate is never the proposal), else refuse a row.
  const toReview = results.find((result) => result.status === 'REVIEW' && result.referenceHotelId) ?? results[0];
  if (!toReview) throw new Error('the job has no results');
  const decision: ReviewDecision = toReview.referenceHotelId
    ? { decision: 'MATCH', partnerHotelId: toReview.partnerHotelId, referenceHotelId: toReview.referenceHotelId }
    : { decision: 'NO_MATCH', partnerHotelId: toReview.partnerHotelId };
  const reviewed = await ok(client.POST('/api/v1/mapping/{jobId}/reviews', { ...jobPath, body: decision }));

  // Find a match now, for a hotel the job mapped (from its result's partner facts) and one without a name.
  const mapped = results.find((result) => result.status === 'MATCHED' && result.partnerHotel) ?? results[0];
  if (!mapped?.partnerHotel) throw new Error('no result carries its partner hotel');
  const facts = mapped.partnerHotel;
  const found = await ok(
    client.POST('/api/v1/mapping/match', {
      body: {
        hotels: [
          {
            id: 'FIND-1',
            name: facts.name,
            address: facts.address,
            postalCode: facts.postalCode,
            city: facts.city,
            country: facts.country,
            lat: facts.latitude,
            lon: facts.longitude,
          },
          { id: 'FIND-2' },
        ],
        view: 'ENGINE',
      },
    }),
  );
  const [answer, refused] = found.results;
  if (!answer || answer.status === 'REJECTED' || !refused || refused.status !== 'REJECTED')
    throw new Error(`unexpected find-match answers ${JSON.stringify(found.results)}`);

  // A large job's file is prepared in the background (202, status PREPARING): the same request answers 200 with its URL once written.
  const exported = await poll(
    () => ok(client.POST('/api/v1/mapping/{jobId}/export', jobPath)),
    (answer) => 'fileUrl' in answer,
  );
  if (!('fileUrl' in exported)) throw new Error('the export was never ready');
  const file = await (await fetch(exported.fileUrl)).text();

  const plans = await ok(client.GET('/api/v1/billing/plans'));
  const paidPlan = plans.tiers.find((tier) => tier.planType === 'SUBSCRIPTION');
  if (!paidPlan) throw new Error('no SUBSCRIPTION tier');
  const quota = await ok(client.GET('/api/v1/billing/quota/status'));
  await ok(client.GET('/api/v1/billing/metrics/history', { params: { query: { limit: 6 } } }));

  const subscription = await ok(
    client.POST('/api/v1/webhook-subscriptions', { body: { url: options.receiver.url, events: ['MAPPING_COMPLETED'] } }),
  );
  const subscriptionPath = { params: { path: { id: subscription.id } } };
  const test = await ok(
    client.POST('/api/v1/webhook-subscriptions/{id}/test', { ...subscriptionPath, body: { eventType: 'MAPPING_COMPLETED' } }),
  );
  const received = await options.receiver.next();
  // Throws unless the request is signed with the subscription's secret.
  const event = new Webhook(subscription.secret).verify(received.body, received.headers);
  const webhookEventType = typeof event === 'object' && event !== null && 'type' in event ? String(event.type) : '';
  const delivery = await poll(
    () =>
      ok(
        client.GET('/api/v1/webhook-subscriptions/{id}/deliveries/{deliveryId}', {
          params: { path: { id: subscription.id, deliveryId: test.deliveryId } },
        }),
      ),
    (view) => view.status === 'SUCCEEDED' || view.status === 'DEAD_LETTERED',
  );
  const history = await ok(
    client.GET('/api/v1/webhook-subscriptions/{id}/deliveries', {
      params: { path: { id: subscription.id }, query: { limit: 20, status: 'SUCCEEDED' } },
    }),
  );
  if (!history.deliveries.some((item) => item.id === test.deliveryId)) throw new Error('the test delivery is not in the history');

  return {
    connectedSupplier: connection.supplierCode,
    jobStatus: job.status,
    resultRows: results.length,
    pages,
    reviewed: { partnerHotelId: reviewed.partnerHotelId, decision: decision.decision, status: reviewed.status },
    foundMatch: {
      jobHotel: mapped.referenceHotelId,
      foundHotel: answer.referenceHotelId,
      from: answer.from,
      refusedBecause: refused.reason,
      charged: found.charged,
    },
    exportedLines: file.trim().split('\n').length,
    mappingsUsedToday: quota.mappingsUsedToday,
    webhookEventType,
    deliveryStatus: delivery.status,
    deliveryAttempts: delivery.attempts.length,
    deliveredJobId: delivery.payload.type === 'MAPPING_COMPLETED' ? delivery.payload.data.mappingJobId : '',
    subscriptionPrice: { amount: paidPlan.monthlyPriceAmount, currency: paidPlan.currency },
  };
}
