// @ts-check
/**
 * The organization's jobs with live progress, and a job's scores as it keeps them: their histogram
 * per status, the automatic answers expected wrong (the scores are calibrated probabilities), the
 * ways into its review queues, and bulk decisions by the reason rows were held and their score.
 */
import { api, readAll } from './api.js';
import { decimal, h, show, wide } from './dom.js';
import { notify } from './notice.js';

/**
 * @import { components } from './api-types.js'
 * @import { Answer, RequestBody } from './api.js'
 */
/**
 * @typedef {components['schemas']['MappingJob']} Job
 * @typedef {components['schemas']['MappingResult']} Result
 * @typedef {Answer<'/mapping/{jobId}/reviews/batch', 'POST'>} BatchAnswer the rows a batch decided, in brief, and those it refused
 * @typedef {RequestBody<'/mapping/{jobId}/reviews/batch', 'POST'>['decisions']} BatchDecisions
 */

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
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Job', 'Created', 'Status', 'Mode', 'Progress', 'Matched', 'Review', 'Unmatched'].map((name) =>
              h('th', { scope: 'col' }, name),
            ),
            h('th', { scope: 'col' }, h('span', { class: 'sr' }, 'Open')),
          ),
        ),
        body,
      ),
    ),
  );
  async function refresh() {
    try {
      const { jobs } = await api('/mapping', { query: { limit: 50 } });
      show(
        body,
        jobs.length === 0 ? h('tr', {}, h('td', { colspan: 9 }, 'No jobs yet: create one with POST /api/v1/mapping.')) : jobs.map(jobLine),
      );
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
    h(
      'td',
      {},
      h(
        'a',
        { href: `console#/jobs/${job.mappingJobId}` },
        'Open',
        h('span', { class: 'sr' }, ` ${job.name ?? `the job of ${job.createdAt}`}`),
      ),
    ),
  );
}

/** @param {HTMLElement} main @param {string} jobId @returns {() => void} */
export function jobView(main, jobId) {
  // Its id until the job is read; then its name, the id beside it.
  const title = h('h1', {}, 'Job ', h('code', {}, jobId));
  const summary = h(
    'section',
    { 'aria-labelledby': 'summary-title' },
    h('h2', { id: 'summary-title' }, 'Summary'),
    h('p', {}, 'Reading the job…'),
  );
  const scores = h(
    'section',
    { 'aria-labelledby': 'scores-title' },
    h('h2', { id: 'scores-title' }, 'Scores'),
    h('p', {}, 'Reading the scores…'),
  );
  const bulk = h('section', { 'aria-labelledby': 'bulk-title' });
  show(
    main,
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: 'console#/jobs' }, 'Jobs'), ' › Job'),
    title,
    summary,
    scores,
    bulk,
  );
  /** The summary and the scores as the API has them now: the job's figures are one read. */
  async function refresh() {
    const job = await api('/mapping/{jobId}', { path: { jobId } });
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
    show(scores, h('h2', { id: 'scores-title' }, 'Scores'), ...scoreFigures(jobId, job));
    return job;
  }
  void (async () => {
    try {
      const job = await refresh();
      if (job.status !== 'COMPLETED') return;
      const inReview = await readAll('/mapping/{jobId}/results', 'results', { path: { jobId }, query: { status: 'REVIEW', limit: 1000 } });
      bulkDecisions(bulk, jobId, inReview, () => void refresh().catch(() => undefined));
    } catch (error) {
      notify(`The job could not be read: ${/** @type {Error} */ (error).message}`);
    }
  })();
  return () => {};
}

/** Words for a count of rows. @param {number} count */
const rows = (count) => `${count} ${count === 1 ? 'row' : 'rows'}`;

/**
 * The job's score figures, as its finishing stage wrote them: the histogram per status, the wrong
 * answers expected among the rows no one has decided, and the ways into the queues.
 * @param {string} jobId @param {Job} job
 */
function scoreFigures(jobId, job) {
  const queues = h(
    'p',
    { class: 'queues' },
    h('a', { class: 'button', href: `console#/jobs/${jobId}/review` }, `Review the ${rows(job.counts.review)} in REVIEW`),
    ' ',
    h('a', { class: 'button', href: `console#/jobs/${jobId}/riskiest` }, 'Review the riskiest automatic answers'),
  );
  if (!job.scores)
    return [
      h(
        'p',
        {},
        job.status === 'COMPLETED'
          ? 'This job completed before jobs kept their score figures.'
          : 'The scores are written when the job completes.',
      ),
      job.status === 'COMPLETED' ? queues : null,
    ];
  const wrong = job.scores.expectedWrong;
  return [
    histogram(job.scores.histogram),
    h(
      'p',
      { class: 'expected' },
      `About ${decimal(wrong.MATCHED + wrong.UNMATCHED, 1)} automatic answers are expected wrong among those no one has checked: `,
      `${decimal(wrong.MATCHED, 1)} matches and ${decimal(wrong.UNMATCHED, 1)} rows left unmatched`,
      ' (the scores are calibrated: a match scoring 0.8 is right about 8 times in 10).',
    ),
    queues,
  ];
}

const STATUSES = /** @type {const} */ (['MATCHED', 'REVIEW', 'UNMATCHED']);

/** The engine's rows per status and tenth of score, as meters read out as numbers. @param {NonNullable<Job['scores']>['histogram']} bins */
function histogram(bins) {
  const most = Math.max(1, ...STATUSES.flatMap((status) => bins[status]));
  const range = (/** @type {number} */ bin) => `${decimal(bin / 10, 1)}–${decimal((bin + 1) / 10, 1)}`;
  return wide(
    'Rows by score',
    h(
      'table',
      { class: 'histogram' },
      h('caption', {}, 'Rows by score and status, as the engine left them'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Score'),
          STATUSES.map((status) => h('th', { scope: 'col', class: `status-${status.toLowerCase()}` }, status)),
        ),
      ),
      h(
        'tbody',
        {},
        Array.from({ length: 10 }, (_, bin) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, range(bin)),
            STATUSES.map((status) => {
              const count = bins[status][bin] ?? 0;
              return h(
                'td',
                { class: `status-${status.toLowerCase()}` },
                h('meter', { min: 0, max: most, value: count, 'aria-label': `${rows(count)} ${status} scoring ${range(bin)}` }),
                h('span', { class: 'number' }, ` ${count}`),
              );
            }),
          ),
        ).reverse(),
      ),
    ),
  );
}

/** Rows one batch decides at most (POST /mapping/{jobId}/reviews/batch). */
const BATCH_ROWS = 500;

/**
 * Decisions on many rows, each batch of up to BATCH_ROWS one request (with an Idempotency-Key, so a
 * batch sent again after a lost answer is answered, not decided twice).
 * @param {string} jobId @param {BatchDecisions} decisions
 * @param {(done: number) => void} progress
 * @returns {Promise<BatchAnswer>}
 */
async function decideInBatches(jobId, decisions, progress) {
  /** @type {BatchAnswer['decided']} */
  const decided = [];
  /** @type {BatchAnswer['refused']} */
  const refused = [];
  for (let start = 0; start < decisions.length; start += BATCH_ROWS) {
    const answer = await api('/mapping/{jobId}/reviews/batch', {
      method: 'POST',
      path: { jobId },
      body: { decisions: decisions.slice(start, start + BATCH_ROWS) },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    decided.push(...answer.decided);
    refused.push(...answer.refused);
    progress(decided.length + refused.length);
  }
  return { decided, refused };
}

/** The reason a row was held, for people. @param {Result} row */
const reasonOf = (row) => row.reasonCode ?? 'NO_REASON';

/**
 * Decide the REVIEW rows held for one reason (or any) within a score band in bulk: accept their
 * proposals, or mark them no match; how many rows and the wrong decisions expected first (a
 * proposal is right with its score), then the decisions, in batches, then their undo.
 * @param {HTMLElement} section @param {string} jobId @param {Result[]} inReview @param {() => void} changed
 */
function bulkDecisions(section, jobId, inReview, changed) {
  const open = inReview.filter((row) => row.referenceHotelId !== null);
  const reasons = [...new Set(open.map(reasonOf))].sort();
  const reason = h(
    'select',
    { id: 'bulk-reason' },
    h('option', { value: '' }, `Any reason (${rows(open.length)})`),
    reasons.map((code) => h('option', { value: code }, `${code} (${rows(open.filter((row) => reasonOf(row) === code).length)})`)),
  );
  const lowest = h('input', { type: 'number', id: 'bulk-min', min: 0, max: 1, step: 0.01, value: '0.80' });
  const highest = h('input', { type: 'number', id: 'bulk-max', min: 0, max: 1, step: 0.01, value: '1.00' });
  const action = h(
    'select',
    { id: 'bulk-action' },
    h('option', { value: 'MATCH' }, 'Accept their proposals'),
    h('option', { value: 'NO_MATCH' }, 'Mark them no match'),
  );
  const preview = h('p', { id: 'bulk-preview', 'aria-live': 'polite' });
  const go = h('button', { type: 'button', id: 'bulk-go' });
  const outcome = h('div', { id: 'bulk-outcome', 'aria-live': 'polite' });
  const chosen = () =>
    open.filter(
      (row) =>
        (reason.value === '' || reasonOf(row) === reason.value) && row.score >= Number(lowest.value) && row.score <= Number(highest.value),
    );
  const update = () => {
    const picked = chosen();
    const accepting = action.value === 'MATCH';
    const wrong = picked.reduce((sum, row) => sum + (accepting ? 1 - row.score : row.score), 0);
    show(
      preview,
      `${rows(picked.length)} in REVIEW${reason.value ? ` held as ${reason.value}` : ''} scoring ${decimal(Number(lowest.value))} to ${decimal(Number(highest.value))}: `,
      `${accepting ? 'accepting their proposals' : 'marking them no match'} would leave about ${decimal(wrong, 1)} wrong.`,
    );
    show(go, `${accepting ? 'Accept' : 'Mark no match'}: ${rows(picked.length)}`);
    go.disabled = picked.length === 0;
  };
  for (const control of [reason, lowest, highest, action]) control.addEventListener('input', update);
  go.addEventListener('click', async () => {
    const batch = chosen();
    const decision = action.value;
    go.disabled = true;
    show(outcome, `Deciding ${rows(batch.length)}…`);
    try {
      const { decided, refused } = await decideInBatches(
        jobId,
        batch.map((row) =>
          decision === 'MATCH'
            ? {
                partnerHotelId: row.partnerHotelId,
                decision,
                referenceHotelId: /** @type {string} */ (row.referenceHotelId),
                expectedDecidedAt: null,
              }
            : { partnerHotelId: row.partnerHotelId, decision: 'NO_MATCH', expectedDecidedAt: null },
        ),
        (done) => show(outcome, `Decided ${done} of ${batch.length}…`),
      );
      const gone = new Set(decided.map((row) => row.partnerHotelId));
      open.splice(0, open.length, ...open.filter((row) => !gone.has(row.partnerHotelId)));
      const undo = h('button', { type: 'button', id: 'bulk-undo' }, `Undo this bulk decision (${rows(decided.length)})`);
      undo.addEventListener('click', async () => {
        undo.disabled = true;
        show(outcome, `Undoing ${rows(decided.length)}…`);
        try {
          const undone = await decideInBatches(
            jobId,
            decided.map((row) => ({
              partnerHotelId: row.partnerHotelId,
              decision: 'WITHDRAW',
              expectedDecidedAt: row.review?.decidedAt ?? null,
            })),
            (done) => show(outcome, `Undone ${done} of ${decided.length}…`),
          );
          // Back in REVIEW as the engine had them: the rows as they were before the bulk.
          const back = new Set(undone.decided.map((row) => row.partnerHotelId));
          open.push(...batch.filter((row) => back.has(row.partnerHotelId)));
          show(
            outcome,
            `${rows(undone.decided.length)} back in REVIEW${undone.refused.length ? `; ${rows(undone.refused.length)} changed meanwhile and kept` : ''}.`,
          );
        } catch (error) {
          show(outcome, `The undo failed: ${/** @type {Error} */ (error).message}`);
        }
        update();
        changed();
        // The undo button is gone: the person goes on from the bulk action.
        go.focus();
      });
      show(
        outcome,
        `${rows(decided.length)} decided${refused.length ? `; ${rows(refused.length)} refused (${refused[0]?.message})` : ''}. `,
        undo,
      );
      undo.focus();
    } catch (error) {
      show(outcome, `Nothing more was decided: ${/** @type {Error} */ (error).message}`);
    }
    update();
    changed();
  });
  show(
    section,
    h('h2', { id: 'bulk-title' }, 'Decide in bulk'),
    h(
      'div',
      { class: 'bulk-form' },
      h('label', { for: 'bulk-reason' }, 'Rows in REVIEW held as'),
      reason,
      h('label', { for: 'bulk-min' }, 'scoring from'),
      lowest,
      h('label', { for: 'bulk-max' }, 'to'),
      highest,
      h('label', { for: 'bulk-action' }, 'Decision'),
      action,
    ),
    preview,
    go,
    outcome,
  );
  update();
}
