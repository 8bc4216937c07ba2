// @ts-check
/**
 * The organization's jobs with live progress, and a job's scores: their histogram, the number of
 * automatic matches expected wrong (the scores are calibrated probabilities, so it is the sum of
 * one minus each score), the way into its review queues, and a bulk accept above a chosen score.
 */
import { api, readAll } from './api.js';
import { decimal, h, show, wide } from './dom.js';
import { notify } from './notice.js';
import { reviewJobRow } from './review.js';

/** @typedef {{ mappingJobId: string, name: string | null, status: string, mode: string, createdAt: string, progress: number, counts: { total: number, processed: number, matched: number, review: number, unmatched: number } }} Job */
/** @typedef {import('./review.js').Row} Row */

const POLL_MS = 2000;
const RUNNING = new Set(['PENDING', 'RUNNING']);

/** @param {HTMLElement} main @returns {() => void} */
export function jobsView(main) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const body = h('tbody');
  show(
    main,
    h('h1', {}, 'Mapping jobs'),
    wide(
      'Mapping jobs',
      h(
        'table',
        { class: 'jobs' },
        h('caption', {}, 'Newest first; running jobs update every 2 seconds'),
        h('thead', {}, h('tr', {}, ['Job', 'Created', 'Status', 'Mode', 'Progress', 'Matched', 'Review', 'Unmatched'].map((name) => h('th', { scope: 'col' }, name)), h('th', { scope: 'col' }, h('span', { class: 'sr' }, 'Open')))),
        body,
      ),
    ),
  );
  async function refresh() {
    try {
      const { jobs } = /** @type {{ jobs: Job[] }} */ (await api('mapping', { query: { limit: 50 } }));
      show(body, jobs.length === 0 ? h('tr', {}, h('td', { colspan: 9 }, 'No jobs yet: create one with POST /api/v1/mapping.')) : jobs.map(jobLine));
      if (jobs.some((job) => RUNNING.has(job.status))) timer = setTimeout(refresh, POLL_MS);
    } catch (error) {
      notify(`The jobs could not be read: ${/** @type {Error} */ (error).message}`);
    }
  }
  void refresh();
  return () => clearTimeout(timer);
}

/** @param {Job} job */
function jobLine(job) {
  const percent = Math.round(job.progress * 100);
  return h(
    'tr',
    {},
    h('td', {}, job.name ?? h('code', {}, job.mappingJobId)),
    h('td', {}, job.createdAt.replace('T', ' ').slice(0, 16)),
    h('td', {}, job.status),
    h('td', {}, job.mode),
    h('td', {}, h('progress', { max: 100, value: percent, 'aria-label': `Job progress ${percent} %` }), ` ${percent} %`),
    h('td', { class: 'number' }, job.counts.matched),
    h('td', { class: 'number' }, job.counts.review),
    h('td', { class: 'number' }, job.counts.unmatched),
    h('td', {}, h('a', { href: `console#/jobs/${job.mappingJobId}` }, 'Open', h('span', { class: 'sr' }, ` ${job.name ?? `the job of ${job.createdAt}`}`))),
  );
}

/** @param {HTMLElement} main @param {string} jobId @returns {() => void} */
export function jobView(main, jobId) {
  // Its id until the job is read; then its name, the id beside it.
  const title = h('h1', {}, 'Job ', h('code', {}, jobId));
  const summary = h('section', { 'aria-labelledby': 'summary-title' }, h('h2', { id: 'summary-title' }, 'Summary'), h('p', {}, 'Reading the job…'));
  const scores = h('section', { 'aria-labelledby': 'scores-title' }, h('h2', { id: 'scores-title' }, 'Scores'), h('p', {}, 'Reading the scores…'));
  const bulk = h('section', { 'aria-labelledby': 'bulk-title' });
  show(
    main,
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: 'console#/jobs' }, 'Jobs'), ' › Job'),
    title,
    summary,
    scores,
    bulk,
  );
  void (async () => {
    try {
      /** @type {Job} */
      const job = await api(`mapping/${encodeURIComponent(jobId)}`);
      if (job.name) show(title, job.name, ' ', h('code', { class: 'job-id' }, jobId));
      show(
        summary,
        h('h2', { id: 'summary-title' }, 'Summary'),
        h(
          'dl',
          { class: 'facts' },
          [
            ['Status', job.status],
            ['Mode', job.mode],
            ['Rows', `${job.counts.processed} of ${job.counts.total}`],
            ['Matched', job.counts.matched],
            ['In review', job.counts.review],
            ['Unmatched', job.counts.unmatched],
          ].map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
        ),
      );
      const rows = /** @type {Row[]} */ (await readAll(`mapping/${encodeURIComponent(jobId)}/results`, 'results', { limit: 1000 }));
      const automatic = rows.filter((row) => row.status === 'MATCHED' && row.method !== 'MANUAL');
      const expectedWrong = automatic.reduce((sum, row) => sum + (1 - row.score), 0);
      show(
        scores,
        h('h2', { id: 'scores-title' }, 'Scores'),
        histogram(rows),
        h(
          'p',
          { class: 'expected' },
          `Of ${automatic.length} automatic matches, about ${Math.round(expectedWrong)} are expected wrong `,
          '(the sum of one minus each score: a score of 0.8 is right about 8 times in 10).',
        ),
        h(
          'p',
          { class: 'queues' },
          h('a', { class: 'button', href: `console#/jobs/${jobId}/review` }, `Review the ${rows.filter((row) => row.status === 'REVIEW').length} rows in REVIEW`),
          ' ',
          h('a', { class: 'button', href: `console#/jobs/${jobId}/riskiest` }, 'Review the riskiest automatic matches'),
        ),
      );
      if (job.status === 'COMPLETED') bulkAccept(bulk, jobId, rows);
    } catch (error) {
      notify(`The job could not be read: ${/** @type {Error} */ (error).message}`);
    }
  })();
  return () => {};
}

/** Rows per tenth of score, as meters (read out as numbers by screen readers). @param {Row[]} rows */
function histogram(rows) {
  const bins = Array.from({ length: 10 }, () => 0);
  for (const row of rows) {
    const bin = Math.min(9, Math.floor(row.score * 10));
    bins[bin] = (bins[bin] ?? 0) + 1;
  }
  const most = Math.max(1, ...bins);
  return wide(
    'Rows by score',
    h(
      'table',
      { class: 'histogram' },
      h('caption', {}, 'Rows by score'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Share'), h('th', { scope: 'col' }, 'Rows'))),
      h(
        'tbody',
        {},
        bins
          .map((count, bin) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, `${decimal(bin / 10, 1)}–${decimal((bin + 1) / 10, 1)}`),
              h('td', {}, h('meter', { min: 0, max: most, value: count, 'aria-label': `${count} rows scoring ${decimal(bin / 10, 1)} to ${decimal((bin + 1) / 10, 1)}` })),
              h('td', { class: 'number' }, count),
            ),
          )
          .reverse(),
      ),
    ),
  );
}

/** Requests of a bulk decision under way at once: quick, and within the gateway's rate. */
const BULK_CONCURRENCY = 4;

/**
 * Runs `task` over `items`, BULK_CONCURRENCY at a time, telling `progress` each time one ends.
 * @template T, R
 * @param {T[]} items @param {(item: T) => Promise<R>} task @param {(done: number) => void} progress
 * @returns {Promise<PromiseSettledResult<R>[]>}
 */
async function inBatches(items, task, progress) {
  /** @type {PromiseSettledResult<R>[]} */
  const settled = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      settled[at] = await task(/** @type {T} */ (items[at])).then(
        (value) => /** @type {PromiseFulfilledResult<R>} */ ({ status: 'fulfilled', value }),
        (reason) => /** @type {PromiseRejectedResult} */ ({ status: 'rejected', reason }),
      );
      progress(++done);
    }
  };
  await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
  return settled;
}

/**
 * Accept every REVIEW row's proposal at or above a score: how many rows and how many expected
 * errors first, then the decisions, then their undo.
 * @param {HTMLElement} section @param {string} jobId @param {Row[]} rows
 */
function bulkAccept(section, jobId, rows) {
  const inReview = rows.filter((row) => row.status === 'REVIEW' && row.referenceHotelId !== null);
  const threshold = h('input', { type: 'number', id: 'bulk-threshold', min: 0, max: 1, step: 0.05, value: '0.8' });
  const preview = h('p', { id: 'bulk-preview', 'aria-live': 'polite' });
  const accept = h('button', { type: 'button', id: 'bulk-accept' });
  const outcome = h('div', { 'aria-live': 'polite' });
  const chosen = () => inReview.filter((row) => row.score >= Number(threshold.value));
  const update = () => {
    const rowsChosen = chosen();
    const wrong = rowsChosen.reduce((sum, row) => sum + (1 - row.score), 0);
    show(preview, `${rowsChosen.length} rows in REVIEW score at least ${threshold.value}: accepting their proposals would leave about ${decimal(wrong, 1)} wrong.`);
    show(accept, `Accept ${rowsChosen.length} ${rowsChosen.length === 1 ? 'row' : 'rows'}`);
    accept.disabled = rowsChosen.length === 0;
  };
  threshold.addEventListener('input', update);
  accept.addEventListener('click', async () => {
    const batch = chosen();
    accept.disabled = true;
    const settled = await inBatches(
      batch,
      (row) => reviewJobRow(jobId, row, { decision: 'MATCH', referenceHotelId: /** @type {string} */ (row.referenceHotelId) }),
      (done) => show(outcome, `Accepted ${done} of ${batch.length}…`),
    );
    /** @type {Row[]} */
    const decided = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = settled.length - decided.length;
    for (const row of decided) inReview.splice(inReview.findIndex((candidate) => candidate.partnerHotelId === row.partnerHotelId), 1);
    const undo = h('button', { type: 'button', id: 'bulk-undo' }, `Undo this bulk accept (${decided.length} ${decided.length === 1 ? 'row' : 'rows'})`);
    undo.addEventListener('click', async () => {
      undo.disabled = true;
      const undone = await inBatches(decided, (row) => reviewJobRow(jobId, row, { decision: 'WITHDRAW' }), (done) => show(outcome, `Undone ${done} of ${decided.length}…`));
      const restored = undone.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      inReview.push(...restored);
      show(outcome, `${restored.length} rows are back in REVIEW${restored.length < decided.length ? `; ${decided.length - restored.length} were changed meanwhile and kept` : ''}.`);
      update();
    });
    show(outcome, `${decided.length} rows accepted${refused ? `; ${refused} refused (decided meanwhile)` : ''}. `, undo);
    update();
  });
  show(
    section,
    h('h2', { id: 'bulk-title' }, 'Accept in bulk'),
    h('label', { for: 'bulk-threshold' }, 'Accept the proposal of every row in REVIEW scoring at least'),
    ' ',
    threshold,
    preview,
    accept,
    outcome,
  );
  update();
}
