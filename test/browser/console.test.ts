/**
 * The review console in a real Chromium (Playwright) against the local API, worked as a person
 * works it: by keyboard, checked with axe-core on every view (any finding fails, minor included),
 * and each decision checked in the API's state afterwards, not only on the page. The demo data of
 * `npm start` (the generated demo reference and infra/local/demo/review-queue.csv) gives the
 * queue; the review view's screenshots (desktop and phone) go into docs/, beside the README.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO_REFERENCE, REVIEW_DEMO, seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { reviewDemoCsv } from '../../infra/synthetic/review-queue';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const HOSTILE = '<img src=x onerror=alert(1)>';
const SCREENSHOT = 'docs/review-console.png';
const LONG_NAME = 'W'.repeat(500);
/** The review queue on a phone, beside the README's picture of it on a desktop. */
const PHONE_SCREENSHOT = 'docs/review-console-phone.png';

const browserPath = process.env.CHROMIUM_PATH;
const describeInBrowser = browserPath ? describe : describe.skip;
const api = browserPath ? await startTestApi() : undefined!;

describeInBrowser('the review console', () => {
  let browser: Browser;
  let page: Page;
  let partner: Caller;
  let jobId: string;
  let otherJobId: string;
  /** Alerts the page raised: a hostile name that ran would raise one. */
  const dialogs: string[] = [];

  /** Every result row the query finds, page after page. */
  async function results(query: string): Promise<any[]> {
    const rows = [];
    let cursor: string | null = null;
    do {
      const page: { body: { results: any[]; nextCursor: string | null } } = await api.request(
        'GET',
        `/api/v1/mapping/${jobId}/results?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { as: partner },
      );
      rows.push(...page.body.results);
      cursor = page.body.nextCursor;
    } while (cursor);
    return rows;
  }
  const rowOf = async (partnerHotelId: string) => (await results(`partnerHotelId=${encodeURIComponent(partnerHotelId)}`))[0];

  /** axe-core's findings on the page as it stands, of any impact, minor included. */
  async function accessibilityProblems(): Promise<string[]> {
    await page.evaluate(axe.source);
    // An expression, not a function: this file is compiled without the DOM's types.
    const found = await page.evaluate<{ violations: unknown[] }>("axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] })");
    return (found.violations as { id: string; impact: string; nodes: { target: string[] }[] }[]).map(
      (violation) => `${violation.id} (${violation.impact}) at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  }

  /** The partner id of the row the review view shows. */
  const shownRow = async () => (await page.locator('.row-head p').first().textContent())!.match(/^Partner id (\S+)/)![1]!;

  beforeAll(async () => {
    await seedReferenceInventory(api.runtime, DEMO_REFERENCE);
    partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    // Connected as the demo organization is: rows show their hotels' codes at these two suppliers.
    for (const supplier of ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001', '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002'])
      await api.request('POST', `/api/v1/suppliers/${supplier}/connect`, { as: partner });
    const [header, ...lines] = readFileSync(REVIEW_DEMO.file, 'utf8').trimEnd().split('\n');
    // A hostile name on a row of its own, first in partner id order.
    const columns = header!.split(',');
    const hostile = columns.map((column) => (column === 'name' ? `"${HOSTILE}"` : column === 'id' ? '!hostile' : ''));
    // And a name of 500 characters without a space, as partners' files hold them.
    const long = columns.map((column) => (column === 'name' ? LONG_NAME : column === 'id' ? '!long' : ''));
    jobId = await completedJob(api, partner, [header, ...lines, hostile.join(','), long.join(',')].join('\n'));
    const other = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    otherJobId = await completedJob(api, other, [header, ...lines.slice(0, 20)].join('\n'));
    browser = await chromium.launch({ executablePath: browserPath, headless: true });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // Two jobs mapped and finished, and a browser started: seconds alone, a minute or more beside the suite's process-heavy tests.
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with a key kept in the tab only, never in the address, and lists only the organization’s jobs', async () => {
    await page.goto(`${api.baseUrl}/console`);
    const csp = (await page.request.get(`${api.baseUrl}/console`)).headers()['content-security-policy'];
    assert.match(csp!, /script-src 'self'/);
    assert.doesNotMatch(csp!, /unsafe-inline/);
    await page.locator('#api-key').waitFor();
    assert.deepEqual(await accessibilityProblems(), []);
    // The key field has the focus: typed, then Enter.
    await page.keyboard.type('hmk_not-a-key');
    await page.keyboard.press('Enter');
    await page.getByText(/^Not signed in:/).waitFor();
    await page.locator('#api-key').fill('');
    await page.keyboard.type(partner.apiKey);
    await page.keyboard.press('Enter');
    await page.locator('table.jobs tbody tr').first().waitFor();
    assert.equal(await page.locator('table.jobs tbody tr').count(), 1);
    assert.ok(!page.url().includes(partner.apiKey));
    assert.equal(await page.evaluate<number>('sessionStorage.length'), 1);
    assert.equal(await page.evaluate<number>('localStorage.length + document.cookie.length'), 0);
    assert.deepEqual(await accessibilityProblems(), []);
  });

  it('opens a job by its name: its scores, the matches expected wrong, and another organization’s job is not found', async () => {
    // Named after its inventory, in the list and on its page.
    assert.equal(await page.locator('table.jobs tbody tr td').first().textContent(), 'test inventory');
    await page.getByRole('link', { name: 'Open test inventory' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.expected').waitFor();
    assert.equal(await page.locator('main h1').textContent(), `test inventory ${jobId}`);
    // The job's figures, one read: each status's rows by score, and the risk of the automatic answers no one has checked.
    const rows = await results('limit=1000');
    const risk = (status: string) =>
      rows
        .filter((row) => row.status === status && !row.review)
        .reduce((sum, row) => sum + (status === 'UNMATCHED' ? row.score : 1 - row.score), 0);
    const said = (await page.locator('.expected').textContent())!.match(
      /^About ([\d.]+) automatic answers are expected wrong among those no one has checked: ([\d.]+) matches and ([\d.]+) rows left unmatched/,
    );
    assert.ok(said, 'the expected wrong answers are said');
    assert.ok(
      Math.abs(Number(said[2]) - risk('MATCHED')) < 0.06 && Math.abs(Number(said[3]) - risk('UNMATCHED')) < 0.06,
      `${said[0]} vs ${risk('MATCHED')}, ${risk('UNMATCHED')}`,
    );
    for (const [column, status] of ['MATCHED', 'REVIEW', 'UNMATCHED'].entries()) {
      const counts = await page.locator(`table.histogram tbody tr td:nth-of-type(${column + 1}) .number`).allTextContents();
      assert.equal(
        counts.reduce((sum, count) => sum + Number(count), 0),
        rows.filter((row) => (row.review ? row.review.previous.status : row.status) === status).length,
        status,
      );
    }
    assert.deepEqual(await accessibilityProblems(), []);

    await page.goto(`${api.baseUrl}/console#/jobs/${otherJobId}`);
    await page.getByRole('alert').getByText(`Your organization has no mapping job ${otherJobId}.`, { exact: false }).waitFor();
    // Its queue says so too, instead of a blank page.
    await page.goto(`${api.baseUrl}/console#/jobs/${otherJobId}/review`);
    await page
      .locator('.position')
      .getByText(`This queue cannot be read: Your organization has no mapping job ${otherJobId}.`, { exact: false })
      .waitFor();
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}`);
    await page.locator('.expected').waitFor();
  });

  it('reviews ten rows by keyboard alone (confirm, candidate, no match, search, skip, undo), each recorded through the API', async () => {
    const inReview = (await results('status=REVIEW&limit=1000')).length;
    assert.ok(inReview >= 12, `the demo queue holds ${inReview} rows`);
    await page.getByRole('link', { name: /rows in REVIEW/ }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.evidence').waitFor();
    await page.locator('.map .pin-partner').waitFor();
    // The job counts its REVIEW rows: the queue says how many before it has read them all.
    await page.locator('.position').getByText(`Row 1 of ${inReview}`, { exact: true }).waitFor();
    assert.deepEqual(await accessibilityProblems(), []);

    /** What each key should leave on the row it was pressed on. */
    const expected = new Map<string, (row: any) => void>();
    let coded = 0;
    const press = async (key: string, check?: (row: any, before: any) => void) => {
      const id = await shownRow();
      const before = await rowOf(id);
      // The proposal's codes at the connected suppliers, as the API gives them, as text.
      const codes = Object.entries(before.supplierCodes as Record<string, string>);
      const line = page.locator('.row-head .supplier-codes');
      if (codes.length > 0) coded++;
      assert.equal(await line.count(), codes.length > 0 ? 1 : 0, id);
      if (codes.length > 0)
        assert.equal(await line.textContent(), `Supplier codes: ${codes.map(([supplier, code]) => `${supplier} ${code}`).join(' · ')}`);
      await page.keyboard.press(key);
      if (check) expected.set(id, (row) => check(row, before));
      return id;
    };
    const nextRow = async (previous: string) =>
      page.waitForFunction(
        (id) => !(globalThis as any).document.querySelector('.row-head p')?.textContent?.startsWith(`Partner id ${id} `),
        previous,
      );

    const confirmed = (row: any, before: any) => {
      assert.equal(row.status, 'MATCHED');
      assert.equal(row.method, 'MANUAL');
      assert.equal(row.referenceHotelId, before.referenceHotelId);
    };
    const noMatch = (row: any) => {
      assert.equal(row.status, 'UNMATCHED');
      assert.equal(row.review.decision, 'NO_MATCH');
    };
    const untouched = (row: any, before: any) => {
      assert.equal(row.status, 'REVIEW');
      assert.equal(row.review, undefined);
      assert.equal(row.referenceHotelId, before.referenceHotelId);
    };

    await nextRow(await press('Enter', confirmed));
    // A candidate: the first row shown that has one.
    // A row with two candidates or more, the first with a pin: the README's picture, once their records are read.
    const candidateDistance = page.locator('.evidence tbody tr:last-child td:nth-child(4)');
    while ((await page.locator('.evidence thead th').count()) < 5 || (await candidateDistance.textContent()) === '–')
      await nextRow(await press('j', untouched));
    await page.locator('.map .pin-candidate').first().waitFor();
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('.evidence')?.textContent?.includes('…'));
    await page.screenshot({ path: SCREENSHOT });
    await nextRow(
      await press('1', (row, before) => {
        assert.equal(row.status, 'MATCHED');
        assert.equal(row.referenceHotelId, before.candidates[0].referenceHotelId);
      }),
    );
    await nextRow(await press('n', noMatch));
    await nextRow(await press('j', untouched));
    // Search the reference: the dialog opens with the partner's name; the first hotel found is taken.
    const searched = await shownRow();
    await page.keyboard.press('/');
    await page.locator('dialog[open] #reference-search').waitFor();
    await page.keyboard.press('Enter');
    await page.locator('dialog[open] .found button').first().waitFor();
    const chosenName = (await page.locator('dialog[open] .found button').first().textContent())!;
    await page.keyboard.press('Enter');
    await nextRow(searched);
    expected.set(searched, (row) => {
      assert.equal(row.status, 'MATCHED');
      assert.ok(chosenName.startsWith(row.referenceHotelName), `${chosenName} / ${row.referenceHotelName}`);
    });
    // Undo takes the confirmation just made back: its row is shown again, in REVIEW, undecided.
    const undone = await press('Enter');
    await nextRow(undone);
    const before = await shownRow();
    await page.keyboard.press('u');
    await page.getByRole('status').getByText('decision undone', { exact: false }).waitFor();
    assert.equal(await shownRow(), undone);
    expected.set(undone, (row) => assert.deepEqual([row.status, row.review], ['REVIEW', undefined]));
    await page.keyboard.press('j');
    await page.waitForFunction(
      (id) => (globalThis as any).document.querySelector('.row-head p')?.textContent?.startsWith(`Partner id ${id} `),
      before,
    );
    await nextRow(await press('n', noMatch));
    await nextRow(await press('Enter', confirmed));
    await nextRow(await press('ArrowRight', untouched));
    await press('k');
    assert.ok(expected.size >= 10, `${expected.size} rows worked`);
    assert.ok(coded > 0, "some rows showed their hotel's supplier codes");
    // The API's answers arrive after the rows shown: wait until they are all recorded.
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('#notice p'), undefined, { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const [id, check] of expected) check(await rowOf(id));
  });

  it('decides nothing on Enter, N, U or a digit while another control has the focus: the Keys help opens instead', async () => {
    const id = await shownRow();
    const before = await rowOf(id);
    // The Keys help: Enter opens it and decides nothing.
    await page.locator('details.keys summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('details.keys').getAttribute('open'), '');
    // Every other focusable control that is no decision (not the toolbar's Enter, digits, N or U, nor a link, which leaves the view).
    const controls = page.locator('main button, main summary, main [tabindex]:not([tabindex="-1"])');
    for (let at = 0; at < (await controls.count()); at++) {
      const control = controls.nth(at);
      const text = ((await control.textContent()) ?? '').trim();
      if (/^(Enter|N|U|[1-5]) /.test(text) || !(await control.isVisible())) continue;
      await control.focus();
      for (const key of ['n', 'u', '1']) await page.keyboard.press(key);
      if (/^(\/|J|K) /.test(text)) continue; // Enter on them searches or moves: not a decision, but another view.
      await page.keyboard.press('Enter');
      if (await page.locator('dialog[open]').count()) await page.keyboard.press('Escape');
    }
    // Esc from the search gives the focus back to its button: Enter there searches again, and moves no row.
    await page.locator('main').focus();
    await page.keyboard.press('/');
    await page.locator('dialog[open] #reference-search').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.locator('dialog[open] #reference-search').waitFor();
    await page.keyboard.press('Escape');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await shownRow(), id, 'still on the same row');
    const after = await rowOf(id);
    assert.deepEqual(
      [after.status, after.review, after.referenceHotelId],
      [before.status, before.review, before.referenceHotelId],
      'nothing decided in the API',
    );
    await page.locator('main').focus();
  });

  it('shows a 409 as a message when someone else decided the row meanwhile, and keeps their decision', async () => {
    const id = await shownRow();
    const row = await rowOf(id);
    // The row is this screen's: another reviewer cannot decide it while the lease stands.
    const refused = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: partner,
      json: { partnerHotelId: id, decision: 'NO_MATCH', leaseHolder: 'another-reviewer' },
    });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.message, /is being reviewed by someone else/);
    // Once it lapses (the screen idle past its lease), they can.
    api.clock.advance(91_000);
    const elsewhere = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: partner,
      json: { partnerHotelId: id, decision: 'NO_MATCH', note: 'another reviewer', leaseHolder: 'another-reviewer' },
    });
    assert.equal(elsewhere.status, 200, elsewhere.text);
    assert.ok(row.referenceHotelId);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('changed since you read it', { exact: false }).waitFor();
    const after = await rowOf(id);
    assert.equal(after.status, 'UNMATCHED');
    assert.equal(after.review.note, 'another reviewer');
  });

  it('decides in bulk by the reason rows were held and their score, saying the wrong decisions expected first, and undoes it', async () => {
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}`);
    await page.locator('#bulk-go').waitFor();
    const held = (await results('status=REVIEW&limit=1000')).filter((row) => row.referenceHotelId !== null);
    const reason = held[0]!.reasonCode as string;
    const ofReason = held.filter((row) => row.reasonCode === reason && row.score >= 0.2);
    // By keyboard: the reason, the lowest score, no match, then the button.
    await page.locator('#bulk-reason').focus();
    await page.locator('#bulk-reason').selectOption(reason);
    await page.locator('#bulk-min').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.2');
    await page.locator('#bulk-action').selectOption('NO_MATCH');
    const wrong = ofReason.reduce((sum, row) => sum + row.score, 0).toFixed(1);
    await page
      .locator('#bulk-preview')
      .getByText(
        `${ofReason.length} ${ofReason.length === 1 ? 'row' : 'rows'} in REVIEW held as ${reason} scoring 0.20 to 1.00: marking them no match would leave about ${wrong} wrong.`,
      )
      .waitFor();
    assert.deepEqual(await accessibilityProblems(), []);
    const before = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body;
    await page.locator('#bulk-go').focus();
    await page.keyboard.press('Enter');
    await page
      .locator('#bulk-outcome')
      .getByText(`${ofReason.length} ${ofReason.length === 1 ? 'row' : 'rows'} decided`)
      .waitFor();
    // The undo has the focus; the figures are read again.
    assert.equal(await page.evaluate<string>('document.activeElement.id'), 'bulk-undo');
    for (const row of ofReason.slice(0, 5)) assert.equal((await rowOf(row.partnerHotelId)).review.decision, 'NO_MATCH');
    const after = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body;
    assert.equal(after.counts.review, before.counts.review - ofReason.length);
    await page.locator('dd').getByText(String(after.counts.review), { exact: true }).first().waitFor();
    await page.keyboard.press('Enter');
    await page
      .locator('#bulk-outcome')
      .getByText(`${ofReason.length} ${ofReason.length === 1 ? 'row' : 'rows'} back in REVIEW.`)
      .waitFor();
    assert.equal(await page.evaluate<string>('document.activeElement.id'), 'bulk-go');
    assert.equal((await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body.counts.review, before.counts.review);
  });

  it('accepts 300 rows and more in one request, and undoes them in one', async () => {
    // A team's own job of doubtful rows only (the plain ones would match), in a browser context of its own.
    const team = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const reference = [...generateReferenceHotels({ count: DEMO_REFERENCE.hotels, seed: DEMO_REFERENCE.seed })];
    const bigJob = await completedJob(
      api,
      team,
      reviewDemoCsv(reference, 6_000, 11, (kind) => kind !== 'plain' && kind !== 'notInReference'),
    );
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(`sessionStorage.setItem('hotel-mapping.api-key', ${JSON.stringify(team.apiKey)})`);
    const teamPage = await context.newPage();
    const reviewRequests: string[] = [];
    teamPage.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/reviews')) reviewRequests.push(new URL(request.url()).pathname);
    });
    await teamPage.goto(`${api.baseUrl}/console#/jobs/${bigJob}`);
    await teamPage.locator('#bulk-go').waitFor();
    await teamPage.locator('#bulk-min').focus();
    await teamPage.keyboard.press('Control+A');
    await teamPage.keyboard.type('0');
    const proposals = (
      await api.request('GET', `/api/v1/mapping/${bigJob}/results?status=REVIEW&limit=1000`, { as: team })
    ).body.results.filter((row: { referenceHotelId: string | null }) => row.referenceHotelId !== null);
    assert.ok(proposals.length >= 300, `${proposals.length} rows in REVIEW with a proposal`);
    await teamPage.locator('#bulk-go').getByText(`Accept: ${proposals.length} rows`).waitFor();
    await teamPage.locator('#bulk-go').focus();
    await teamPage.keyboard.press('Enter');
    await teamPage.locator('#bulk-outcome').getByText(`${proposals.length} rows decided`).waitFor();
    assert.deepEqual(reviewRequests, [`/api/v1/mapping/${bigJob}/reviews/batch`]);
    const job = (await api.request('GET', `/api/v1/mapping/${bigJob}`, { as: team })).body;
    assert.equal(job.counts.review, 0);
    assert.ok(Math.abs(job.scores.expectedWrong.REVIEW) < 1e-4);
    await teamPage.keyboard.press('Enter');
    await teamPage.locator('#bulk-outcome').getByText(`${proposals.length} rows back in REVIEW.`).waitFor();
    assert.deepEqual(reviewRequests, [`/api/v1/mapping/${bigJob}/reviews/batch`, `/api/v1/mapping/${bigJob}/reviews/batch`]);
    assert.equal((await api.request('GET', `/api/v1/mapping/${bigJob}`, { as: team })).body.counts.review, proposals.length);
    await context.close();
    // Mapping the team's job takes most of it: under a loaded CI, more than the default.
  }, 120_000);

  it('shows a hostile hotel name as text in the mapping book, running nothing', async () => {
    await page.goto(`${api.baseUrl}/console#/book`);
    await page.getByText(HOSTILE, { exact: true }).first().waitFor();
    assert.equal(await page.locator('main img').count(), 0);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(await accessibilityProblems(), []);
    await page.getByRole('button', { name: HOSTILE }).click();
    await page.locator('#entry-title').getByText(HOSTILE).waitFor();
    await page.getByRole('button', { name: 'Show changes' }).click();
    await page.locator('table.feed tbody tr').first().waitFor();
    assert.deepEqual(dialogs, []);
  });

  it('works the riskiest automatic answers, likeliest wrong first, matched or not, and says the errors left as it goes', async () => {
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/riskiest`);
    await page.locator('.evidence').waitFor();
    const automatic = (await results('limit=1000')).filter(
      (row) => !row.review && (row.method === 'FUZZY' || (row.status === 'UNMATCHED' && row.method === null)),
    );
    const risk = (row: { status: string; score: number }) => (row.status === 'UNMATCHED' ? row.score : 1 - row.score);
    const riskiest = automatic.filter((row) => row.status !== 'REVIEW').sort((a, b) => risk(b) - risk(a));
    // The row shown is as likely wrong as the likeliest (rows of equal risk may come in either order).
    const shownRisk = async () => {
      const id = await shownRow();
      return risk(automatic.find((row) => row.partnerHotelId === id));
    };
    assert.equal(await shownRisk(), risk(riskiest[0]));
    const first = await shownRow();
    const left = async () => Number((await page.locator('.expected-left').textContent())!.match(/^About ([\d.]+) automatic answers/)![1]);
    await page
      .locator('.expected-left')
      .getByText(
        /^About [\d.]+ automatic answers no one has checked are expected wrong\. The queue ends where a row is wrong less than once in 20\.$/,
      )
      .waitFor();
    const before = await left();
    assert.deepEqual(await accessibilityProblems(), []);
    // Deciding the riskiest row takes its risk out of the errors left.
    await page.locator('main h1').focus();
    await page.keyboard.press('n');
    await page.waitForFunction((previous) => {
      const said = (globalThis as any).document.querySelector('.expected-left')?.textContent ?? '';
      return !said.startsWith(`About ${previous} `);
    }, before.toFixed(1));
    assert.ok(Math.abs(before - risk(riskiest[0]) - (await left())) < 0.06, `${before} - ${risk(riskiest[0])} vs ${await left()}`);
    assert.equal((await rowOf(first)).review.decision, 'NO_MATCH');
    assert.equal(await shownRisk(), risk(riskiest[1]));
  });

  it('shows two reviewers on one queue never the same row: each skips what the other holds or decided', async () => {
    const contexts = await Promise.all([0, 1].map(() => browser.newContext({ viewport: { width: 1280, height: 900 } })));
    const pages = await Promise.all(
      contexts.map(async (context) => {
        await context.addInitScript(`sessionStorage.setItem('hotel-mapping.api-key', ${JSON.stringify(partner.apiKey)})`);
        return context.newPage();
      }),
    );
    const shownOn = async (reviewer: Page) =>
      (await reviewer.locator('.row-head p').first().textContent())!.match(/^Partner id (\S+)/)![1]!;
    // Both open the queue at once.
    await Promise.all(pages.map((reviewer) => reviewer.goto(`${api.baseUrl}/console#/jobs/${jobId}/review`)));
    await Promise.all(pages.map((reviewer) => reviewer.locator('.evidence').waitFor()));
    const seen: string[][] = [[], []];
    for (let step = 0; step < 6; step++) {
      for (const [at, reviewer] of pages.entries()) {
        const shown = await shownOn(reviewer);
        seen[at]!.push(shown);
        // Never the row the other one shows now.
        assert.notEqual(shown, await shownOn(pages[1 - at]!), `step ${step}`);
        await reviewer.locator('main h1').focus();
        await reviewer.keyboard.press('n');
        await reviewer.waitForFunction(
          (before) => (globalThis as any).document.querySelector('.row-head p')?.textContent?.startsWith(`Partner id ${before} `) === false,
          shown,
        );
      }
    }
    // Each decided six rows, none of the other's.
    assert.deepEqual(
      seen[0]!.filter((id) => seen[1]!.includes(id)),
      [],
    );
    // Each screen shows its next row at once and records the decision meanwhile: the last ones may still be on their way.
    const all = [...seen[0]!, ...seen[1]!];
    const recorded = async () => (await Promise.all(all.map(rowOf))).filter((row) => row.review?.decision === 'NO_MATCH').length;
    for (const deadline = Date.now() + 30_000; (await recorded()) < all.length && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all(contexts.map((context) => context.close()));
    for (const id of all) assert.equal((await rowOf(id)).review?.decision, 'NO_MATCH', id);
    // Undo them, for the views after.
    for (const id of all) {
      const row = await rowOf(id);
      await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
        as: partner,
        json: { partnerHotelId: id, decision: 'WITHDRAW', expectedDecidedAt: row.review.decidedAt },
      });
    }
    // Twelve decisions by two screens racing for one feed, and their undo: more than the default under a loaded CI.
  }, 90_000);

  it("works the mapping book's REVIEW entries by keyboard: a decision on the book, and its undo", async () => {
    const entry = async (id: string) =>
      (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${encodeURIComponent(id)}`, { as: partner })).body;
    await page.goto(`${api.baseUrl}/console#/book/review`);
    await page.locator('.evidence').waitFor();
    assert.deepEqual(await accessibilityProblems(), []);
    const id = await shownRow();
    assert.equal((await entry(id)).status, 'REVIEW');
    await page.keyboard.press('n');
    await page.getByRole('status').getByText('NO_MATCH').waitFor();
    const decided = await entry(id);
    assert.deepEqual([decided.status, decided.method, decided.decision.decision], ['UNMATCHED', 'MANUAL', 'NO_MATCH']);
    await page.keyboard.press('u');
    await page.getByRole('status').getByText('decision undone', { exact: false }).waitFor();
    const undone = await entry(id);
    assert.deepEqual([undone.status, undone.decision], ['REVIEW', undefined]);
    assert.equal(await shownRow(), id);
  });

  it("works the book's riskiest automatic answers, read lowest score first from the API, reached from the book's page by keyboard", async () => {
    const entries = (await api.request('GET', '/api/v1/mapping-book/entries?limit=1000', { as: partner })).body.entries as {
      partnerHotelId: string;
      status: string;
      method: string | null;
      score: number;
    }[];
    const risk = (held: { status: string; score: number }) => (held.status === 'UNMATCHED' ? held.score : 1 - held.score);
    const automatic = entries.filter(
      (held) => (held.status === 'MATCHED' && held.method === 'FUZZY') || (held.status === 'UNMATCHED' && held.method === null),
    );
    const likeliest = Math.max(...automatic.map(risk));
    await page.goto(`${api.baseUrl}/console#/book`);
    await page.getByRole('link', { name: 'Review the riskiest automatic answers' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.evidence').waitFor();
    assert.equal(await page.locator('main h1').first().textContent(), 'Riskiest automatic answers in the book');
    assert.deepEqual(await accessibilityProblems(), []);
    const id = await shownRow();
    assert.equal(risk(automatic.find((held) => held.partnerHotelId === id)!), likeliest);
    await page.locator('main h1').focus();
    await page.keyboard.press('n');
    await page.getByRole('status').getByText('NO_MATCH').waitFor();
    const entry = async () =>
      (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${encodeURIComponent(id)}`, { as: partner })).body;
    assert.equal((await entry()).decision.decision, 'NO_MATCH');
    await page.keyboard.press('u');
    await page.getByRole('status').getByText('decision undone', { exact: false }).waitFor();
    assert.equal((await entry()).decision, undefined);
  });

  it("marks every candidate's fields as the proposal's are: the country and city of each compared, not only its name and distance", async () => {
    const withCandidates = (await results('status=REVIEW&limit=1000')).find(
      (row) => row.candidates.length >= 2 && row.partnerHotel.country && row.partnerHotel.city,
    );
    assert.ok(withCandidates, 'a REVIEW row with two candidates and a partner city');
    assert.ok(
      ['addressMatch', 'postalCodeMatch', 'cityMatch', 'countryMatch'].every((field) => field in withCandidates.candidates[0]),
      JSON.stringify(withCandidates.candidates[0]),
    );
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/row/${encodeURIComponent(withCandidates.partnerHotelId)}`);
    await page.locator('table.evidence').waitFor();
    const marks = await page.evaluate<
      Record<string, string[]>
    >(`Object.fromEntries([...document.querySelectorAll('table.evidence tbody tr')].map((row) =>
      [row.querySelector('th').textContent, [...row.querySelectorAll('td:not(.partner)')].map((cell) => cell.className)]))`);
    for (const field of ['Country', 'City']) {
      assert.equal(marks[field]!.length, 1 + withCandidates.candidates.length, field);
      assert.ok(
        marks[field]!.every((mark) => mark === 'agree' || mark === 'differ'),
        `${field}: ${marks[field]!.join(', ')}`,
      );
    }
  });

  it('links the partner row a reason names to that row, shown alone and decidable', async () => {
    const claimed = (await results('limit=1000')).find((row) => row.reasonCode === 'CLAIMED_BY_ANOTHER_ROW');
    assert.ok(claimed, 'a row whose reference hotel another row claimed');
    const claimer = claimed.reason.match(/partner row (.+) with a stronger match$/)[1];
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/row/${encodeURIComponent(claimed.partnerHotelId)}`);
    await page.locator('.evidence').waitFor();
    assert.equal(await shownRow(), claimed.partnerHotelId);
    await page.locator('.row-head').getByRole('link', { name: claimer }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => (globalThis as any).document.querySelector('main h1')?.textContent === `Partner row ${id}`, claimer);
    await page.locator('.evidence').waitFor();
    assert.equal(await shownRow(), claimer);
    assert.equal(await page.locator('.position').textContent(), 'Row 1 of 1');
    assert.deepEqual(await accessibilityProblems(), []);
    // Enter on the link decided nothing.
    assert.equal((await rowOf(claimer)).review, undefined);
  });

  it('fits a phone (390 px) and a desktop (1280 px) with a 500-character name without a space: no view scrolls sideways', async () => {
    const sideways = async () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const view of [
          'console#/jobs',
          `console#/jobs/${jobId}`,
          `console#/jobs/${jobId}/review`,
          `console#/jobs/${jobId}/riskiest`,
          'console#/book',
        ]) {
          await page.goto(`${api.baseUrl}/${view}`);
          await page.locator('main h1').first().waitFor();
          await page.waitForLoadState('networkidle');
          assert.equal(await sideways(), 0, `${view} at ${width} px`);
        }
        await page.getByText(LONG_NAME, { exact: true }).first().waitFor();
        await page.getByRole('button', { name: LONG_NAME }).click();
        await page.locator('#entry-title').getByText(LONG_NAME).waitFor();
        assert.equal(await sideways(), 0, `the entry at ${width} px`);
        if (width === 390) {
          await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/review`);
          await page.locator('.evidence').waitFor();
          assert.deepEqual(await accessibilityProblems(), [], 'the queue at 390 px');
          await page.screenshot({ path: PHONE_SCREENSHOT, fullPage: true });
        }
      }
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('draws a scale only between two pins or more, and says when the partner has no pin', async () => {
    // The page's own module, as it draws a row's map.
    const drawn = await page.evaluate<{ scale: boolean; note: string | null }[]>(`import('./console/map.js').then(({ pinMap }) => [
      [{ label: 'P', name: 'partner', kind: 'partner' }, { label: '0', name: 'proposal', lat: 48.85, lon: 2.35, kind: 'proposal' }],
      [{ label: 'P', name: 'partner', kind: 'partner' }, { label: '0', name: 'proposal', lat: 48.85, lon: 2.35, kind: 'proposal' }, { label: '1', name: 'candidate', lat: 48.86, lon: 2.35, kind: 'candidate' }],
      [{ label: 'P', name: 'partner', lat: 48.85, lon: 2.351, kind: 'partner' }, { label: '0', name: 'proposal', lat: 48.85, lon: 2.35, kind: 'proposal' }],
    ].map((pins) => {
      const map = pinMap(pins);
      return { scale: map.querySelector('.scale') !== null, note: map.querySelector('.map-note')?.textContent ?? null };
    }))`);
    assert.deepEqual(drawn, [
      { scale: false, note: 'No coordinates: P (no distances from P)' },
      { scale: true, note: 'No coordinates: P (no distances from P)' },
      { scale: true, note: null },
    ]);
  });

  it('takes N with Shift or Caps Lock as n', async () => {
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/review`);
    await page.locator('.evidence').waitFor();
    const id = await shownRow();
    await page.keyboard.press('Shift+N');
    await page.getByRole('status').getByText('NO_MATCH').waitFor();
    const decided = await rowOf(id);
    assert.deepEqual([decided.status, decided.review?.decision], ['UNMATCHED', 'NO_MATCH']);
  });

  it('asks the API before saying a decision failed: one recorded though its answer was lost (503) counts, and undo takes it back', async () => {
    await page.goto(`${api.baseUrl}/console#/jobs/${jobId}/review`);
    await page.locator('.evidence').waitFor();
    const id = await shownRow();
    // The gateway times out after the API recorded the decision: the page gets a 503.
    await page.route(
      '**/api/v1/mapping/*/reviews',
      async (route) => {
        await route.fetch();
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Service Unavailable', message: 'Endpoint request timed out' }),
        });
      },
      { times: 1 },
    );
    await page.keyboard.press('n');
    await page.getByRole('status').getByText('recorded, though its answer was lost', { exact: false }).waitFor();
    assert.equal(await page.locator('#notice p').count(), 0, 'no failure is reported');
    assert.equal((await rowOf(id)).status, 'UNMATCHED');
    // The undo is said at once: its request is held until the page has said so.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/api/v1/mapping/*/reviews',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.keyboard.press('u');
    await page.getByRole('status').getByText('undoing…', { exact: false }).waitFor();
    release();
    await page.getByRole('status').getByText('decision undone', { exact: false }).waitFor();
    assert.deepEqual([(await rowOf(id)).status, (await rowOf(id)).review], ['REVIEW', undefined]);

    // A 503 that came before the API recorded anything: said so, and the row stays in REVIEW.
    const next = await shownRow();
    await page.route(
      '**/api/v1/mapping/*/reviews',
      (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Service Unavailable","message":"down"}' }),
      { times: 1 },
    );
    await page.keyboard.press('n');
    await page.locator('#notice').getByText(`(${next}) was not decided`, { exact: false }).waitFor();
    assert.equal((await rowOf(next)).status, 'REVIEW');
  });
});
