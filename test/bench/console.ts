/**
 * `npm run bench:console`: the review console's speed, in a real Chromium against the local runtime
 * with `npm start`'s demo data (the demo reference, and the review demo's job of 4,000 hotels):
 *  - the first view: from navigation to a usable sign-in form, and, signed in, to the first review
 *    row with its evidence, its hotels' records and its map (each from a new tab, --loads times);
 *  - a key to the next row shown: Enter (a decision) and J (the next row), --keys times, from the
 *    key event to the first frame painted after the row changed; the API's answer comes after, and
 *    its time is printed apart;
 *  - on a queue of 300 rows and more (a job of the review demo's doubtful rows): a decision key to
 *    the next row painted, and to it painted with all its evidence (its hotels' records read);
 *  - undo (U): from the key to "decision undone" (the API's answer to the withdrawal included);
 *  - a bulk decision of 300 rows through POST /mapping/{jobId}/reviews/batch, and its undo (--rounds
 *    times each), and one bulk accept of the whole queue through the console, click to outcome;
 *  - the page's own code: its files, bytes and gzipped bytes.
 *   npm run bench:console [-- --loads 5 --keys 60 --rounds 5]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { localRuntime } from '../../infra/local/messaging';
import { localPaymentPages } from '../../infra/local/payment-pages';
import { DEMO_REFERENCE, mapReviewDemo, seedDemoOrganizations, seedReferenceInventory, seedSuppliers } from '../../infra/local/seed';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { CONSOLE_FILES_DIR } from '../../shared/console';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { reviewDemoCsv } from '../../infra/synthetic/review-queue';

process.env.LOG_LEVEL ??= 'warn';
const { values: args } = parseArgs({
  options: { loads: { type: 'string', default: '5' }, keys: { type: 'string', default: '60' }, rounds: { type: 'string', default: '5' } },
});
const LOADS = Number(args.loads);
const KEYS = Number(args.keys);
const ROUNDS = Number(args.rounds);
const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RECORDER = fileURLToPath(new URL('./console-recorder.js', import.meta.url));

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const summary = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))} (${values.length})`;

const dir = mkdtempSync(join(tmpdir(), 'bench-console-'));
const stack = await provisionLocalStack({
  s3DataDir: dir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const { runtime, messaging } = localRuntime(stack.config);
messaging.start();
await seedReferenceInventory(runtime);
await seedSuppliers(runtime);
const demo = await seedDemoOrganizations(runtime);
const server = createLocalApi({ runtime, pages: localPaymentPages(runtime) });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
await mapReviewDemo(baseUrl, demo.apiKey);
const headers = { 'x-api-key': demo.apiKey };
let job: { mappingJobId: string; status: string; counts: { review: number } } | undefined;
do {
  await new Promise((resolve) => setTimeout(resolve, 500));
  job = ((await (await fetch(`${baseUrl}/api/v1/mapping`, { headers })).json()) as { jobs: (typeof job)[] }).jobs[0];
} while (job?.status !== 'COMPLETED');
process.stdout.write(`review demo mapped: ${job.counts.review} rows in REVIEW\n`);

const browser = await chromium.launch({ executablePath: browserPath, headless: true });

/**
 * A new tab that records, in the page, when each selector first shows and when each row is painted
 * after a key. The waits below are functions that see the page's globals through globalThis (this
 * file has no DOM types): an expression would be evaluated as a string, which the policy forbids.
 */
async function newTab(signedIn: boolean): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  if (signedIn) await page.addInitScript(`sessionStorage.setItem('hotel-mapping.api-key', ${JSON.stringify(demo.apiKey)})`);
  await page.addInitScript({ path: RECORDER });
  return page;
}

const signInForm: number[] = [];
const firstRow: number[] = [];
const firstRowRecords: number[] = [];
for (let load = 0; load < LOADS; load++) {
  const signIn = await newTab(false);
  await signIn.goto(`${baseUrl}/console`);
  await signIn.locator('#api-key').waitFor();
  signInForm.push(await signIn.evaluate<number>("window.seen['#api-key']"));
  await signIn.close();
  const review = await newTab(true);
  await review.goto(`${baseUrl}/console#/jobs/${job.mappingJobId}/review`);
  await review.waitForFunction(
    () => (globalThis as any).seen.records !== undefined && (globalThis as any).seen['.map .pin-partner'] !== undefined,
  );
  firstRow.push(await review.evaluate<number>("Math.max(window.seen['.evidence'], window.seen['.map .pin-partner'])"));
  firstRowRecords.push(await review.evaluate<number>('window.seen.records'));
  await review.close();
}

const page = await newTab(true);
const reviewAnswers: number[] = [];
page.on('requestfinished', (request) => {
  if (request.method() === 'POST' && request.url().endsWith('/reviews')) reviewAnswers.push(request.timing().responseEnd);
});
await page.goto(`${baseUrl}/console#/jobs/${job.mappingJobId}/review`);
await page.locator('.evidence').waitFor();
for (let i = 0; i < KEYS; i++) {
  const before = await page.locator('.row-head p').first().textContent();
  await page.keyboard.press(i % 2 === 0 ? 'Enter' : 'j');
  await page.waitForFunction((shown) => (globalThis as any).document.querySelector('.row-head p')?.textContent !== shown, before);
  await page.waitForFunction(() => (globalThis as any).keys.at(-1).painted !== undefined);
}
const keys = await page.evaluate<{ key: string; at: number; painted: number }[]>('window.keys');
const toNext = (key: string) => keys.filter((press) => press.key === key).map((press) => press.painted - press.at);
await page.close();

// A queue of 300 rows and more: the review demo's doubtful rows alone, mapped for the demo organization.
const reference = [...generateReferenceHotels({ count: DEMO_REFERENCE.hotels, seed: DEMO_REFERENCE.seed })];
const form = new FormData();
form.append('name', 'Doubtful rows');
form.append(
  'file',
  new Blob([reviewDemoCsv(reference, 6_000, 11, (kind) => kind !== 'plain' && kind !== 'notInReference')], { type: 'text/csv' }),
  'doubtful.csv',
);
const inventory = (await (await fetch(`${baseUrl}/api/v1/partner-inventories`, { method: 'POST', headers, body: form })).json()) as {
  partnerInventoryId: string;
};
const created = (await (
  await fetch(`${baseUrl}/api/v1/mapping`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ partnerInventoryId: inventory.partnerInventoryId }),
  })
).json()) as { mappingJobId: string };
let big: { status: string; counts: { review: number } };
do {
  await new Promise((resolve) => setTimeout(resolve, 500));
  big = (await (await fetch(`${baseUrl}/api/v1/mapping/${created.mappingJobId}`, { headers })).json()) as typeof big;
} while (big.status !== 'COMPLETED');
process.stdout.write(`doubtful rows mapped: ${big.counts.review} rows in REVIEW\n`);

// A bulk decision of 300 rows through the API, and its undo, round after round.
type BatchAnswer = { decided: { partnerHotelId: string; review: { decidedAt: string } }[]; refused: unknown[] };
const inReview: { partnerHotelId: string; referenceHotelId: string | null }[] = [];
for (let cursor: string | null | undefined; cursor !== null;) {
  const page = (await (
    await fetch(
      `${baseUrl}/api/v1/mapping/${created.mappingJobId}/results?status=REVIEW&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers },
    )
  ).json()) as { results: typeof inReview; nextCursor: string | null };
  inReview.push(...page.results);
  cursor = page.nextCursor;
}
const three = inReview.filter((row) => row.referenceHotelId !== null).slice(0, 300);
const batch = async (decisions: unknown[]) => {
  const started = performance.now();
  const answer = (await (
    await fetch(`${baseUrl}/api/v1/mapping/${created.mappingJobId}/reviews/batch`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ decisions }),
    })
  ).json()) as BatchAnswer;
  return { ms: performance.now() - started, answer };
};
const bulkDecided: number[] = [];
const bulkUndone: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const accepted = await batch(
    three.map((row) => ({
      partnerHotelId: row.partnerHotelId,
      decision: 'MATCH',
      referenceHotelId: row.referenceHotelId,
      expectedDecidedAt: null,
    })),
  );
  if (accepted.answer.decided.length !== three.length)
    throw new Error(`a bulk of ${three.length} decided ${accepted.answer.decided.length}`);
  bulkDecided.push(accepted.ms);
  const undone = await batch(
    accepted.answer.decided.map((row) => ({
      partnerHotelId: row.partnerHotelId,
      decision: 'WITHDRAW',
      expectedDecidedAt: row.review.decidedAt,
    })),
  );
  if (undone.answer.decided.length !== three.length) throw new Error(`an undo of ${three.length} withdrew ${undone.answer.decided.length}`);
  bulkUndone.push(undone.ms);
}

// The whole queue accepted in bulk through the console, and undone: click to outcome.
const bulkPage = await newTab(true);
await bulkPage.goto(`${baseUrl}/console#/jobs/${created.mappingJobId}`);
await bulkPage.locator('#bulk-go').waitFor();
await bulkPage.locator('#bulk-min').fill('0');
const bulkRows = Number((await bulkPage.locator('#bulk-go').textContent())!.match(/(\d+) rows?/)![1]);
let started = Date.now();
await bulkPage.locator('#bulk-go').click();
await bulkPage
  .locator('#bulk-outcome')
  .getByText(/rows? decided/)
  .waitFor();
const consoleBulk = Date.now() - started;
started = Date.now();
await bulkPage.locator('#bulk-undo').click();
await bulkPage
  .locator('#bulk-outcome')
  .getByText(/back in REVIEW/)
  .waitFor();
const consoleUndo = Date.now() - started;

// The queue worked by keys, after the bulk decisions were undone.
const queuePage = await newTab(true);
await queuePage.goto(`${baseUrl}/console#/jobs/${created.mappingJobId}/review`);
await queuePage.locator('.evidence').waitFor();
const undos: number[] = [];
for (let i = 0; i < KEYS; i++) {
  const before = await queuePage.locator('.row-head p').first().textContent();
  await queuePage.keyboard.press(i % 2 === 0 ? 'Enter' : 'n');
  await queuePage.waitForFunction((shown) => (globalThis as any).document.querySelector('.row-head p')?.textContent !== shown, before);
  await queuePage.waitForFunction(() => (globalThis as any).keys.at(-1).complete !== undefined);
  if (i % 10 === 9) {
    // Undo the last decision: the key to the status saying it is undone (its answer included).
    const started = Date.now();
    await queuePage.keyboard.press('u');
    await queuePage.locator('.status').getByText('decision undone').waitFor();
    undos.push(Date.now() - started);
    await queuePage.keyboard.press('j');
    await queuePage.waitForFunction(() => (globalThis as any).keys.at(-1).painted !== undefined);
  }
}
const queueKeys = await queuePage.evaluate<{ key: string; at: number; painted: number; complete: number }[]>('window.keys');
const decisionKeys = queueKeys.filter((press) => press.key === 'Enter' || press.key === 'n');
await queuePage.close();

await new Promise((resolve) => setTimeout(resolve, 1000));
await browser.close();

const files = readdirSync(CONSOLE_FILES_DIR).filter((file) => /\.(js|css)$/.test(file));
const text = files.map((file) => readFileSync(join(CONSOLE_FILES_DIR, file)));
const bytes = text.reduce((sum, file) => sum + file.length, 0);
const lines = text.reduce((sum, file) => sum + file.toString('utf8').split('\n').length - 1, 0);

process.stdout.write(
  [
    `first view, sign-in form usable:            ${summary(signInForm)}`,
    `first view, signed in, first review row:     ${summary(firstRow)}`,
    `  with its hotels' records read:             ${summary(firstRowRecords)}`,
    `Enter (a decision) to the next row painted:  ${summary(toNext('Enter'))}`,
    `J (next) to the next row painted:            ${summary(toNext('j'))}`,
    `the API's answer to a decision (after):      ${summary(reviewAnswers)}`,
    `on a queue of ${big.counts.review} rows:`,
    `  a decision to the next row painted:        ${summary(decisionKeys.map((press) => press.painted - press.at))}`,
    `  ... with all its evidence:                 ${summary(decisionKeys.map((press) => press.complete - press.at))}`,
    `  undo (U) to "decision undone":             ${summary(undos)}`,
    `a bulk decision of ${three.length} rows (API, one request): ${summary(bulkDecided)}`,
    `  its undo (one request):                    ${summary(bulkUndone)}`,
    `the console's bulk accept of ${bulkRows} rows:      ${ms(consoleBulk)} click to outcome; its undo ${ms(consoleUndo)}`,
    `the page's code: ${files.length} files, ${lines} lines, ${(bytes / 1024).toFixed(1)} KiB (${(gzipSync(Buffer.concat(text), { level: 9 }).length / 1024).toFixed(1)} KiB gzipped), no dependency`,
    '',
  ].join('\n'),
);
server.close();
messaging.stop();
await stack.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
