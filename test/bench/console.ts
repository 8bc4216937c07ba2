/**
 * `npm run bench:console`: the review console's speed, in a real Chromium against the local runtime
 * with `npm start`'s demo data (the demo reference, and the review demo's job of 4,000 hotels):
 *  - the first view: from navigation to a usable sign-in form, and, signed in, to the first review
 *    row with its evidence, its hotels' records and its map (each from a new tab, --loads times);
 *  - a key to the next row shown: Enter (a decision) and J (the next row), --keys times, from the
 *    key event to the first frame painted after the row changed; the API's answer comes after, and
 *    its time is printed apart;
 *  - the page's own code: its files, bytes and gzipped bytes.
 *   npm run bench:console [-- --loads 5 --keys 60]
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
import { mapReviewDemo, seedDemoOrganizations, seedReferenceInventory, seedSuppliers } from '../../infra/local/seed';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { CONSOLE_FILES_DIR } from '../../shared/console';

process.env.LOG_LEVEL ??= 'warn';
const { values: args } = parseArgs({ options: { loads: { type: 'string', default: '5' }, keys: { type: 'string', default: '60' } } });
const LOADS = Number(args.loads);
const KEYS = Number(args.keys);
const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RECORDER = fileURLToPath(new URL('./console-recorder.js', import.meta.url));

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const summary = (values: number[]) => `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))} (${values.length})`;

const dir = mkdtempSync(join(tmpdir(), 'bench-console-'));
const stack = await provisionLocalStack({ s3DataDir: dir, localTokenSigningKey: newLocalTokenSigningKey(), localSecretsKey: randomBytes(32).toString('base64') });
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
  await review.waitForFunction(() => (globalThis as any).seen.records !== undefined && (globalThis as any).seen['.map .pin-partner'] !== undefined);
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
  const before = await page.locator('.row-head p').textContent();
  await page.keyboard.press(i % 2 === 0 ? 'Enter' : 'j');
  await page.waitForFunction((shown) => (globalThis as any).document.querySelector('.row-head p')?.textContent !== shown, before);
  await page.waitForFunction(() => (globalThis as any).keys.at(-1).painted !== undefined);
}
const keys = await page.evaluate<{ key: string; at: number; painted: number }[]>('window.keys');
const toNext = (key: string) => keys.filter((press) => press.key === key).map((press) => press.painted - press.at);
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
    `the page's code: ${files.length} files, ${lines} lines, ${(bytes / 1024).toFixed(1)} KiB (${(gzipSync(Buffer.concat(text), { level: 9 }).length / 1024).toFixed(1)} KiB gzipped), no dependency`,
    '',
  ].join('\n'),
);
server.close();
messaging.stop();
await stack.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
