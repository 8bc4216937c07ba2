// @ts-check
/**
 * A review queue (a job's, or the mapping book's), one row at a time, worked by keyboard: the partner's hotel beside the
 * proposal and its candidates (evidence.js), their pins (map.js), and one key per decision. A
 * decision shows the next row at once (it is prefetched) while the API records it; an answer the
 * API refuses (a 409 when someone decided the row meanwhile) comes back as a message and the row as
 * it was. Every decision goes through the public review endpoints (POST /mapping/{jobId}/reviews,
 * /mapping-book/reviews), undo too (WITHDRAW, or the decision the row had before), each saying
 * which decision it was made on (expectedDecidedAt).
 */
import { api, ApiError } from './api.js';
import { decimal, h, show, wide } from './dom.js';
import { evidenceTable, supplierCodesLine } from './evidence.js';
import { pinMap } from './map.js';
import { notify } from './notice.js';

/**
 * @import { components } from './api-types.js'
 * @import { Answer, Query } from './api.js'
 */
/**
 * @typedef {import('./evidence.js').PartnerFacts} PartnerFacts
 * @typedef {import('./evidence.js').ReferenceHotel} ReferenceHotel
 * @typedef {components['schemas']['ReferenceHotelSummary']} FoundHotel a hotel the reference search found
 * @typedef {components['schemas']['MappingResult']} Result a job's row
 * @typedef {components['schemas']['MappingBookEntry']} Entry a book entry
 * @typedef {Query<'/mapping/{jobId}/results'>} ResultQuery
 * @typedef {Query<'/mapping-book/entries'>} EntryQuery
 * @typedef {{ decision: 'MATCH' | 'NO_MATCH', decidedAt: string, referenceHotelId: string | null }} Review the decision standing on a row
 * A job's row or a book entry, as a queue shows it: what the two have in common, and the decision standing on it.
 * @typedef {Pick<Result, 'partnerHotelId' | 'partnerHotelName' | 'partnerHotel' | 'referenceHotelId' | 'referenceHotelName' | 'method' | 'score' | 'supplierCodes' | 'evidence' | 'candidates' | 'reason' | 'reasonCode'>
 *   & { source?: Entry['source'], status: Result['status'] | Entry['status'], confidence?: Result['confidence'], review?: Review }} Row
 * @typedef {{ decision: 'MATCH', referenceHotelId: string } | { decision: 'NO_MATCH' } | { decision: 'WITHDRAW' }} Decision
 */

/** Rows read ahead of the one shown, with their hotels' records. */
const PREFETCH = 3;
/** Rows leased ahead of the one shown: a person deciding fast finds the next rows already held. */
const LEASE_AHEAD = 6;
/** How long a row stays leased unless the lease is renewed, and how often it is. */
const LEASE_SECONDS = 90;
/** Rows one screen leases at once at most (the API's limit). */
const LEASED_AT_MOST = 20;
const RENEW_MS = 30_000;
const PAGE = 100;

/**
 * A queue's keys, in one table for the key handler, the buttons and the Keys help: the keys that
 * press each (letters in lower case: N and n are one key), how its button and the help show it,
 * and whether it decides (a deciding key does nothing while another control has the focus: Enter
 * on a link is the link's).
 * @typedef {'confirm' | 'pick' | 'noMatch' | 'search' | 'undo' | 'previous' | 'next'} Action
 * @type {{ action: Action, pressed: string[], button: string, help: string, meaning: string, decides: boolean }[]}
 */
const KEYS = [
  { action: 'confirm', pressed: ['Enter'], button: 'Enter', help: 'Enter', meaning: 'confirm the proposal', decides: true },
  { action: 'pick', pressed: ['1', '2', '3', '4', '5'], button: '1–5', help: '1–5', meaning: 'pick a candidate', decides: true },
  { action: 'noMatch', pressed: ['n'], button: 'N', help: 'N', meaning: 'no match', decides: true },
  { action: 'search', pressed: ['/'], button: '/', help: '/', meaning: 'search the reference', decides: false },
  { action: 'undo', pressed: ['u'], button: 'U', help: 'U', meaning: 'undo the last decision', decides: true },
  { action: 'next', pressed: ['j', 'ArrowRight'], button: 'J', help: 'J or →', meaning: 'next row', decides: false },
  { action: 'previous', pressed: ['k', 'ArrowLeft'], button: 'K', help: 'K or ←', meaning: 'previous row', decides: false },
];
/** @param {Action} action */
const keyOf = (action) => /** @type {(typeof KEYS)[number]} */ (KEYS.find((binding) => binding.action === action));

/** @type {Map<string, Promise<ReferenceHotel | undefined>>} */
const hotels = new Map();
/** A reference hotel's record, read once. @param {string} id */
function hotel(id) {
  let record = hotels.get(id);
  if (!record) {
    record = api('/reference/{id}', { path: { id } }).catch(() => undefined);
    hotels.set(id, record);
  }
  return record;
}

/** The rows of a queue in the order they are worked, read a page ahead. */
class RowQueue {
  /** @param {(cursor: string | undefined) => Promise<{ rows: Row[], nextCursor: string | null }>} load */
  constructor(load) {
    this.load = load;
    /** @type {Row[]} */
    this.rows = [];
    /** @type {string | undefined} */
    this.cursor = undefined;
    this.done = false;
    /** @type {Promise<void> | undefined} */
    this.loading = undefined;
  }

  /** Reads pages until row `index` is in, or the queue ends. @param {number} index */
  async reach(index) {
    while (!this.done && this.rows.length <= index) {
      this.loading ??= this.load(this.cursor).then(({ rows, nextCursor }) => {
        this.rows.push(...rows);
        this.cursor = nextCursor ?? undefined;
        this.done = nextCursor === null;
        this.loading = undefined;
      });
      await this.loading;
    }
  }
}

/**
 * Where a queue's rows come from and where their decisions go: a job's results and reviews, or the
 * mapping book's entries and reviews.
 * `reread` answers the row as the API has it now: what a decision whose answer was lost left;
 * `total`, when the API counts them, the queue's rows before all are read;
 * `left`, when the API keeps it, what is left to find: read on opening and after each decision;
 * `leases`, when the API leases rows: holding the rows about to be shown, so that no one else is
 * shown them at once (the rows others hold, or decided since they were read, are skipped), and leaving.
 * @typedef {{ hold: (partnerHotelIds: string[]) => Promise<Answer<'/mapping/{jobId}/leases/{holder}', 'PUT'>>, leave: () => void }} Leases
 * `rowHref`, where another row of the same job is shown alone (the row a reason names).
 * @typedef {{ title: string, back: { href: string, label: string }, queue: RowQueue, send: (row: Row, decision: Decision) => Promise<Row>, reread: (row: Row) => Promise<Row | undefined>,
 *   total?: () => Promise<number>, left?: () => Promise<string>, leases?: Leases, rowHref?: (partnerHotelId: string) => string }} QueueSource
 */

/** The probability that a row's automatic answer is wrong (the scores are calibrated): a match's, one less its score; an unmatched row's, its best candidate's. @param {Row} row */
export const riskOf = (row) => (row.status === 'UNMATCHED' ? row.score : 1 - row.score);

/** Where the riskiest queue ends: rows below it are each wrong less than once in twenty. */
export const RISK_FLOOR = 0.05;

/**
 * Automatic answers likeliest wrong first, down to RISK_FLOOR: the matches lowest score first and
 * the unmatched rows best candidate first, two lists (a job's results, or the book's entries) read a
 * page at a time and merged.
 * @param {(query: ResultQuery & EntryQuery) => Promise<{ rows: Row[], nextCursor: string | null }>} read
 */
function riskiest(read) {
  /** @type {{ query: ResultQuery & EntryQuery, rows: Row[], cursor: string | undefined, done: boolean }[]} */
  const streams = [
    {
      query: { status: 'MATCHED', method: 'FUZZY', order: 'ASC', maxScore: Number(decimal(1 - RISK_FLOOR, 4)) },
      rows: [],
      cursor: undefined,
      done: false,
    },
    {
      query: { status: 'UNMATCHED', order: 'DESC', minScore: Number(decimal(RISK_FLOOR, 4)) },
      rows: [],
      cursor: undefined,
      done: false,
    },
  ];
  return new RowQueue(async () => {
    /** @type {Row[]} */
    const page = [];
    while (page.length < PAGE) {
      for (const stream of streams) {
        if (stream.rows.length > 0 || stream.done) continue;
        const page = await read({ ...stream.query, limit: PAGE, cursor: stream.cursor });
        stream.rows.push(...page.rows);
        stream.cursor = page.nextCursor ?? undefined;
        stream.done = page.nextCursor === null;
      }
      const [first, second] = streams.map((stream) => stream.rows[0]);
      if (!first && !second) break;
      const next = !second || (first && riskOf(first) >= riskOf(second)) ? streams[0] : streams[1];
      page.push(/** @type {Row} */ (next?.rows.shift()));
    }
    const more = streams.some((stream) => stream.rows.length > 0 || !stream.done);
    return { rows: page, nextCursor: more ? 'more' : null };
  });
}

/**
 * A job's rows in REVIEW, its automatic answers likeliest wrong first, or one row of it (`partnerHotelId`).
 * @param {string} jobId @param {'review' | 'riskiest' | 'row'} kind @param {string} [partnerHotelId]
 * @returns {QueueSource}
 */
export function jobQueue(jobId, kind, partnerHotelId) {
  // This person on this screen: the rows it leases are its own until it leaves.
  const holder = `console-${crypto.randomUUID()}`;
  /** @param {ResultQuery} query */
  const read = async (query) => {
    const page = await api('/mapping/{jobId}/results', { path: { jobId }, query });
    return { rows: page.results.map(fromResult), nextCursor: page.nextCursor };
  };
  const readJob = () => api('/mapping/{jobId}', { path: { jobId } });
  const queue =
    kind === 'review'
      ? new RowQueue((cursor) => read({ status: 'REVIEW', limit: PAGE, cursor }))
      : kind === 'row'
        ? new RowQueue(async () => ({ rows: (await read({ partnerHotelId })).rows, nextCursor: null }))
        : riskiest(read);
  return {
    title: { review: 'Rows in REVIEW', riskiest: 'Riskiest automatic answers', row: `Partner row ${partnerHotelId}` }[kind],
    back: { href: `console#/jobs/${jobId}`, label: 'Job' },
    queue,
    rowHref: (id) => `console#/jobs/${encodeURIComponent(jobId)}/row/${encodeURIComponent(id)}`,
    ...(kind === 'review' && { total: async () => (await readJob()).counts.review }),
    left: async () => {
      const { scores } = await readJob();
      if (!scores) return '';
      const { MATCHED, UNMATCHED, REVIEW } = scores.expectedWrong;
      return kind === 'review'
        ? `Accepting every proposal still in REVIEW would leave about ${decimal(REVIEW, 1)} wrong.`
        : `About ${decimal(MATCHED + UNMATCHED, 1)} automatic answers no one has checked are expected wrong. The queue ends where a row is wrong less than once in ${Math.round(1 / RISK_FLOOR)}.`;
    },
    leases: {
      hold: (partnerHotelIds) =>
        api('/mapping/{jobId}/leases/{holder}', {
          method: 'PUT',
          path: { jobId, holder },
          body: { partnerHotelIds, seconds: LEASE_SECONDS },
        }),
      // Kept alive: leaving is also closing the tab.
      leave: () =>
        void api('/mapping/{jobId}/leases/{holder}', { method: 'DELETE', path: { jobId, holder }, keepalive: true }).catch(() => undefined),
    },
    send: async (row, decision) => fromResult(await reviewJobRow(jobId, row, decision, holder)),
    reread: async (row) => {
      const { results } = await api('/mapping/{jobId}/results', { path: { jobId }, query: { partnerHotelId: row.partnerHotelId } });
      return results[0] && fromResult(results[0]);
    },
  };
}

/**
 * A decision on a job's row through POST /mapping/{jobId}/reviews, made on the decision the row
 * was read with (a 409 when another stands since, or another reviewer holds the row); answers the
 * row as the API shows it.
 * @param {string} jobId @param {{ partnerHotelId: string, review?: { decidedAt: string } }} row @param {Decision} decision @param {string} leaseHolder
 */
function reviewJobRow(jobId, row, decision, leaseHolder) {
  return api('/mapping/{jobId}/reviews', {
    method: 'POST',
    path: { jobId },
    body: { partnerHotelId: row.partnerHotelId, ...decision, expectedDecidedAt: row.review?.decidedAt ?? null, leaseHolder },
  });
}

/**
 * The mapping book's entries in REVIEW, or its automatic answers likeliest wrong first.
 * @param {'review' | 'riskiest'} kind
 * @returns {QueueSource}
 */
export function bookQueue(kind) {
  /** @param {EntryQuery} query */
  const read = async (query) => {
    const page = await api('/mapping-book/entries', { query });
    return { rows: page.entries.map(fromEntry), nextCursor: page.nextCursor };
  };
  return {
    title: kind === 'review' ? 'Book entries in REVIEW' : 'Riskiest automatic answers in the book',
    back: { href: 'console#/book', label: 'Mapping book' },
    queue: kind === 'review' ? new RowQueue((cursor) => read({ status: 'REVIEW', limit: PAGE, cursor })) : riskiest(read),
    send: async (row, decision) =>
      fromEntry(
        await api('/mapping-book/reviews', {
          method: 'POST',
          body: { source: row.source, partnerHotelId: row.partnerHotelId, ...decision, expectedDecidedAt: row.review?.decidedAt ?? null },
        }),
      ),
    reread: async (row) =>
      fromEntry(await api('/mapping-book/entry', { query: { source: row.source, partnerHotelId: row.partnerHotelId } })),
  };
}

/** What the engine's reason says; the partner row it names, when it names one, linked to where that row is shown. */
const CLAIMED_BY = /^(reference hotel also claimed by partner row )(.+)( with a stronger match)$/;
/**
 * @param {string} reason @param {((partnerHotelId: string) => string) | undefined} rowHref
 * @returns {(string | HTMLAnchorElement)[]}
 */
function reasonText(reason, rowHref) {
  const claimed = rowHref && reason.match(CLAIMED_BY);
  if (!claimed) return [reason];
  const [, before = '', partnerHotelId = '', after = ''] = claimed;
  return [before, h('a', { href: rowHref(partnerHotelId) }, partnerHotelId), after];
}

/** A job's result row as the queue shows it. @param {Result} result @returns {Row} */
function fromResult(result) {
  const { review, ...row } = result;
  return {
    ...row,
    ...(review && {
      review: {
        decision: review.decision,
        decidedAt: review.decidedAt,
        referenceHotelId: review.decision === 'MATCH' ? result.referenceHotelId : null,
      },
    }),
  };
}

/** A book entry as the queue shows it: its decision may be one a later job sent back to REVIEW. @param {Entry} entry @returns {Row} */
function fromEntry(entry) {
  const { decision, partner, ...row } = entry;
  return {
    ...row,
    partnerHotelName: partner.name,
    partnerHotel: partner,
    ...(decision && {
      review: { decision: decision.decision, decidedAt: decision.decidedAt, referenceHotelId: decision.referenceHotelId },
    }),
  };
}

/**
 * Whether the row as the API has it now holds this decision, made since the row was read.
 * @param {Row} now @param {Row} before @param {Decision} decision
 */
function madeIt(now, before, decision) {
  const review = now.review;
  if (!review || review.decision !== decision.decision || review.decidedAt === before.review?.decidedAt) return false;
  return decision.decision !== 'MATCH' || review.referenceHotelId === decision.referenceHotelId;
}

/**
 * @param {HTMLElement} main
 * @param {QueueSource} source
 * @returns {() => void} what stops the view (its key handler)
 */
export function reviewView(main, { title, back, queue, send, reread, total, left, leases, rowHref }) {
  let index = 0;
  /** The rows leased to this screen, as the last answer said. */
  let leased = new Set();
  /** The rows whose decisions were sent and not yet answered. @type {Set<string>} */
  const deciding = new Set();
  /** One lease request at a time, each asking for the rows of the moment: a late answer never releases what a newer request holds. */
  let holding = Promise.resolve(false);
  function hold() {
    const next = holding.catch(() => false).then(holdNow);
    holding = next;
    return next;
  }
  /**
   * Leases the row shown and the ones read ahead; a row another reviewer holds, or one decided since
   * it was read, leaves the queue ahead. Whether any did.
   */
  async function holdNow() {
    if (!leases) return false;
    const ahead = queue.rows.slice(index, index + 1 + LEASE_AHEAD);
    if (ahead.length === 0 && deciding.size === 0) return false;
    // The rows whose decisions are on their way stay held: no one else is shown them before they land.
    const ids = [...new Set([...ahead.map((row) => row.partnerHotelId), ...deciding])].slice(0, LEASED_AT_MOST);
    const held = await leases.hold(ids);
    leased = new Set(held.leased.map((row) => row.partnerHotelId));
    const decidedAt = new Map(held.leased.map((row) => [row.partnerHotelId, row.decidedAt]));
    const skipped = new Set([
      ...held.taken.map((row) => row.partnerHotelId),
      ...ahead
        .filter((row) => decidedAt.has(row.partnerHotelId) && decidedAt.get(row.partnerHotelId) !== (row.review?.decidedAt ?? null))
        .map((row) => row.partnerHotelId),
    ]);
    const shown = queue.rows[index]?.partnerHotelId;
    if (skipped.size > 0)
      queue.rows.splice(0, queue.rows.length, ...queue.rows.filter((row, at) => at < index || !skipped.has(row.partnerHotelId)));
    // The row on screen went to another reviewer in a moment it was not held here: the next is shown.
    if (shown !== undefined && skipped.has(shown)) void render();
    // The person moved meanwhile, or rows left the queue: the rows now about to be shown are asked for next.
    const asked = new Set(ids);
    if (queue.rows.slice(index, index + 1 + LEASE_AHEAD).some((row) => !asked.has(row.partnerHotelId))) void hold().catch(() => undefined);
    return skipped.size > 0;
  }
  const renewal = leases ? setInterval(() => void hold().catch(() => undefined), RENEW_MS) : undefined;
  const leave = () => leases?.leave();
  window.addEventListener('pagehide', leave);
  /** The queue's rows as the API counted them when it opened, until every row is read. @type {number | undefined} */
  let counted;
  void total?.().then(
    (rows) => {
      counted = rows;
      void render();
    },
    () => undefined,
  );
  /** Decisions made here, newest last: what undo takes back. @type {{ before: Row, sent: Promise<Row | undefined> }[]} */
  const made = [];
  const position = h('p', { class: 'position', 'aria-live': 'polite' });
  const expectedLeft = h('p', { class: 'expected-left' });
  const tellLeft = () =>
    void left?.().then(
      (said) => show(expectedLeft, said),
      () => undefined,
    );
  tellLeft();
  const view = h('section', { class: 'row-view' });
  const status = h('p', { class: 'status', role: 'status' });
  const search = searchDialog((choice) => decide({ decision: 'MATCH', referenceHotelId: choice.id }, `MATCH ${choice.name}`));
  show(
    main,
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: back.href }, back.label), ' › ', title),
    h('h1', {}, title),
    position,
    expectedLeft,
    view,
    status,
    keyHelp(),
    search.dialog,
  );

  async function render() {
    try {
      await queue.reach(index + LEASE_AHEAD);
    } catch (error) {
      // Another organization's job, one gone, the API unreachable: said, not a blank page.
      show(position, `This queue cannot be read: ${/** @type {Error} */ (error).message}`);
      show(view, h('p', {}, h('a', { href: back.href }, `Back to the ${back.label.toLowerCase()}`)));
      return;
    }
    // A row is shown once it is leased here: another reviewer is never shown it at once.
    for (let tries = 0; leases && queue.rows[index] && !leased.has(queue.rows[index]?.partnerHotelId) && tries < 5; tries++) {
      try {
        if (await hold()) await queue.reach(index + LEASE_AHEAD);
      } catch (error) {
        show(position, `The rows could not be leased: ${/** @type {Error} */ (error).message}`);
        return;
      }
    }
    const row = queue.rows[index];
    if (!row) {
      show(position, queue.rows.length === 0 ? 'Nothing to review in this queue.' : `All ${queue.rows.length} rows seen.`);
      show(view, h('p', {}, h('a', { href: back.href }, `Back to the ${back.label.toLowerCase()}`)));
      return;
    }
    show(
      position,
      `Row ${index + 1} of ${queue.done ? queue.rows.length : counted === undefined ? `${queue.rows.length}+` : Math.max(counted, queue.rows.length)}`,
    );
    paint(row);
    // Later rows' hotels are read now, and the rows leased, so the next row shows at once.
    for (const later of queue.rows.slice(index + 1, index + 1 + PREFETCH)) columnsOf(later).forEach((column) => void hotel(column.id));
    if (queue.rows.slice(index, index + 1 + LEASE_AHEAD).some((ahead) => !leased.has(ahead.partnerHotelId)))
      void hold().catch(() => undefined);
  }

  /** @param {Row} row */
  function paint(row) {
    const partner = row.partnerHotel ?? { name: row.partnerHotelName };
    const columns = columnsOf(row);
    const draw = (/** @type {(ReferenceHotel | undefined)[]} */ details) => {
      const detailed = columns.map((column, i) => ({ ...column, detail: details[i] }));
      show(
        view,
        h(
          'header',
          { class: 'row-head' },
          h('h2', {}, partner.name),
          h(
            'p',
            {},
            `Partner id ${row.partnerHotelId} · ${row.status}${row.method ? ` (${row.method})` : ''} · score ${decimal(row.score)}${row.confidence ? `, ${row.confidence} confidence` : ''}`,
            row.reasonCode ? ` · ${row.reasonCode}` : '',
            row.reason ? [' · ', ...reasonText(row.reason, rowHref)] : '',
          ),
          supplierCodesLine(row.supplierCodes),
          row.review
            ? h('p', { class: 'decided' }, `Decided ${row.review.decision} at ${row.review.decidedAt.replace('T', ' ').slice(0, 16)}`)
            : null,
        ),
        h(
          'div',
          { class: 'side-by-side' },
          wide('Evidence, field by field', evidenceTable(partner, detailed)),
          h(
            'figure',
            { class: 'map-box' },
            pinMap([
              { label: 'P', name: partner.name, lat: partner.latitude, lon: partner.longitude, kind: 'partner' },
              ...detailed.map((column) => ({
                label: column.key === '↵' ? '0' : column.key,
                name: column.name,
                lat: column.detail?.lat,
                lon: column.detail?.lon,
                kind: column.key === '↵' ? /** @type {const} */ ('proposal') : /** @type {const} */ ('candidate'),
              })),
            ]),
            h(
              'figcaption',
              {},
              'P the partner’s pin, 0 the proposal, 1–5 the candidates; distances from P. Drawn from coordinates, no map tiles.',
            ),
          ),
        ),
        actions(row, columns),
      );
    };
    draw([]);
    void Promise.all(columns.map((column) => hotel(column.id))).then((details) => {
      if (queue.rows[index] === row) draw(details);
    });
  }

  /** @param {Row} row @param {ReturnType<typeof columnsOf>} columns */
  function actions(row, columns) {
    const button = (/** @type {string} */ key, /** @type {string} */ label, /** @type {() => void} */ run) =>
      h('button', { type: 'button', onclick: run }, h('kbd', {}, key), ' ', label);
    /** A key's button, labelled with its meaning. @param {Action} action */
    const keyButton = (action) => {
      const { button: shown, meaning } = keyOf(action);
      return button(shown, meaning[0]?.toUpperCase() + meaning.slice(1), () => acts[action](shown));
    };
    return h(
      'div',
      { class: 'actions', role: 'toolbar', 'aria-label': 'Decisions' },
      columns[0] && row.status !== 'UNMATCHED' ? keyButton('confirm') : null,
      columns.slice(1).map((column) => button(column.key, column.name, () => acts.pick(column.key))),
      keyButton('noMatch'),
      keyButton('search'),
      keyButton('undo'),
      keyButton('previous'),
      keyButton('next'),
    );
  }

  /** @param {number} step */
  function move(step) {
    // Past the last row read is fine while more are to come; once all are read, one past the last ends the queue.
    index = Math.max(0, queue.done ? Math.min(index + step, queue.rows.length) : index + step);
    void render();
  }

  function confirmProposal() {
    const row = queue.rows[index];
    if (row?.referenceHotelId) decide({ decision: 'MATCH', referenceHotelId: row.referenceHotelId }, `MATCH ${row.referenceHotelName}`);
  }

  /** @param {number} n */
  function pick(n) {
    const candidate = queue.rows[index]?.candidates[n - 1];
    if (candidate) decide({ decision: 'MATCH', referenceHotelId: candidate.referenceHotelId }, `MATCH ${candidate.referenceHotelName}`);
  }

  /**
   * Shows the next row at once and records the decision behind it.
   * @param {Decision} decision @param {string} said
   */
  function decide(decision, said) {
    const before = queue.rows[index];
    if (!before) return;
    const at = index;
    /** @param {Row} decided @param {string} how */
    const recorded = (decided, how) => {
      queue.rows[at] = decided;
      show(status, `${before.partnerHotelName}: ${said}${how}`);
      tellLeft();
      return decided;
    };
    /** @type {Promise<Row | undefined>} */
    const sent = send(before, decision).then(
      (decided) => recorded(decided, ''),
      /** @returns {Promise<Row | undefined>} */
      async (/** @type {Error} */ error) => {
        // No answer, or the gateway's 5xx: the API may have recorded it all the same. Ask it before saying it failed.
        if (!(error instanceof ApiError) || error.status >= 500) {
          const now = await reread(before).catch(() => undefined);
          if (now && madeIt(now, before, decision)) return recorded(now, ' (recorded, though its answer was lost)');
          if (!now) {
            notify(
              `${before.partnerHotelName} (${before.partnerHotelId}): whether it was decided is unknown (${error.message}); the API did not answer again. Come back to the row to see.`,
            );
            return forget(sent);
          }
        }
        notify(`${before.partnerHotelName} (${before.partnerHotelId}) was not decided: ${error.message}`);
        return forget(sent);
      },
    );
    deciding.add(before.partnerHotelId);
    void sent.finally(() => deciding.delete(before.partnerHotelId));
    made.push({ before, sent });
    move(1);
  }

  /** A decision that was not made leaves undo's reach. @param {Promise<Row | undefined>} sent @returns {undefined} */
  function forget(sent) {
    const failed = made.findIndex((decision) => decision.sent === sent);
    if (failed >= 0) made.splice(failed, 1);
    return undefined;
  }

  async function undo() {
    const last = made.pop();
    if (!last) return notify('Nothing to undo.');
    // Said at once: the undo waits for the decision's own answer, then for its own.
    show(status, `${last.before.partnerHotelName}: undoing…`);
    const decided = await last.sent;
    if (!decided) return;
    const { before } = last;
    /** @type {Decision} */
    const restore = !before.review
      ? { decision: 'WITHDRAW' }
      : before.review.decision === 'MATCH' && before.review.referenceHotelId
        ? { decision: 'MATCH', referenceHotelId: before.review.referenceHotelId }
        : { decision: 'NO_MATCH' };
    try {
      const restored = await send(decided, restore);
      const at = queue.rows.findIndex((row) => row.partnerHotelId === before.partnerHotelId);
      if (at >= 0) {
        queue.rows[at] = restored;
        index = at;
      }
      // Shown once its row is (leased again, when it was left behind).
      await render();
      show(status, `${before.partnerHotelName}: decision undone`);
      tellLeft();
    } catch (error) {
      notify(`${before.partnerHotelName}: the undo was refused: ${/** @type {Error} */ (error).message}`);
    }
  }

  /** What each action does in this view; `key`, the key that pressed it. @type {Record<Action, (key: string) => void>} */
  const acts = {
    confirm: () => confirmProposal(),
    pick: (key) => pick(Number(key)),
    noMatch: () => decide({ decision: 'NO_MATCH' }, 'NO_MATCH'),
    search: () => {
      const row = queue.rows[index];
      if (row) search.open(row.partnerHotel ?? { name: row.partnerHotelName });
    },
    undo: () => void undo(),
    next: () => move(1),
    previous: () => move(-1),
  };

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || search.dialog.open) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest('input, textarea, select, dialog')) return;
    // Letters as typed, whatever Shift or Caps Lock: N and n are one key.
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    // A key decides only when the row has the person's attention: on another control (a link, a
    // button, the Keys help) Enter is that control's, and the decision keys do nothing.
    const onControl = target.closest('a, button, summary, [tabindex]:not([tabindex="-1"])') !== null;
    const binding = KEYS.find(({ pressed }) => pressed.includes(key));
    if (!binding || (onControl && binding.decides)) return;
    acts[binding.action](key);
    event.preventDefault();
  }
  document.addEventListener('keydown', onKey);
  void render();
  return () => {
    document.removeEventListener('keydown', onKey);
    clearInterval(renewal);
    window.removeEventListener('pagehide', leave);
    leave();
  };
}

/** The proposal (key Enter, drawn 0) and the candidates (keys 1–5). @param {Row} row */
function columnsOf(row) {
  const proposal = row.referenceHotelId
    ? [
        {
          label: 'Proposal',
          key: '↵',
          id: row.referenceHotelId,
          name: row.referenceHotelName ?? '',
          score: row.score,
          evidence: row.evidence ?? {},
        },
      ]
    : [];
  const candidates = row.candidates.slice(0, 5).map((candidate, i) => ({
    label: `Candidate ${i + 1}`,
    key: String(i + 1),
    id: candidate.referenceHotelId,
    name: candidate.referenceHotelName,
    score: candidate.score,
    // The same evidence as the proposal's (rows mapped before candidates carried it: name and distance).
    evidence: candidate,
  }));
  return [...proposal, ...candidates];
}

function keyHelp() {
  return h(
    'details',
    { class: 'keys' },
    h('summary', {}, 'Keys'),
    h(
      'dl',
      {},
      KEYS.map(({ help, meaning }) => [h('dt', {}, h('kbd', {}, help)), h('dd', {}, meaning)]),
    ),
  );
}

/**
 * Another reference hotel, found by name near the partner's: a dialog with a search box and the
 * hotels found, picked with arrows and Enter.
 * @param {(hotel: FoundHotel) => void} chosen
 */
function searchDialog(chosen) {
  const input = h('input', { type: 'search', id: 'reference-search', autocomplete: 'off' });
  const found = h('ul', { class: 'found', 'aria-label': 'Hotels found' });
  /** @type {PartnerFacts} */
  let partner = { name: '' };
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'search-title' },
    h(
      'form',
      {
        method: 'dialog',
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          void find();
        },
      },
      h('h2', { id: 'search-title' }, 'Search the reference'),
      h('label', { for: 'reference-search' }, 'Hotel name'),
      input,
      h('button', { type: 'submit' }, 'Search'),
      h('button', { type: 'button', onclick: () => dialog.close() }, 'Close'),
    ),
    found,
  );
  async function find() {
    show(found, h('li', {}, 'Searching…'));
    try {
      const { results } = await api('/reference/search', { query: { q: input.value, country: partner.country, limit: 10 } });
      show(
        found,
        results.length === 0
          ? h('li', {}, 'No hotel found.')
          : results.map((hotel) =>
              h(
                'li',
                {},
                h(
                  'button',
                  {
                    type: 'button',
                    onclick: () => {
                      dialog.close();
                      chosen(hotel);
                    },
                  },
                  hotel.name,
                  h('span', { class: 'where' }, ` · ${[hotel.city, hotel.country].filter(Boolean).join(', ')}`),
                ),
              ),
            ),
      );
      found.querySelector('button')?.focus();
    } catch (error) {
      show(found, h('li', {}, /** @type {Error} */ (error).message));
    }
  }
  found.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...found.querySelectorAll('button')];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    buttons[Math.max(0, Math.min(buttons.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))]?.focus();
    event.preventDefault();
  });
  return {
    dialog,
    /** @param {PartnerFacts} facts */
    open(facts) {
      partner = facts;
      input.value = facts.name;
      show(found);
      dialog.showModal();
      input.select();
    },
  };
}
