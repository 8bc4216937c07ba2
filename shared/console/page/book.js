// @ts-check
/**
 * The mapping book: its entries by source and status, an entry's history, and the change feed
 * since a day.
 */
import { api } from './api.js';
import { decimal, h, show, wide } from './dom.js';
import { notify } from './notice.js';
import { supplierCodesLine } from './evidence.js';

/** @import { components } from './api-types.js' */
/** @typedef {components['schemas']['MappingBookEntry']} Entry */

const STATUSES = /** @type {const} */ (['', 'MATCHED', 'REVIEW', 'UNMATCHED', 'DELETED']);

/** @param {HTMLElement} main @returns {() => void} */
export function bookView(main) {
  const status = h(
    'select',
    { id: 'book-status' },
    STATUSES.map((value) => h('option', { value }, value || 'Any (but DELETED)')),
  );
  const list = h('div', { 'aria-live': 'polite' });
  const detail = h('section', { 'aria-label': 'Entry' });
  const since = h('input', { type: 'date', id: 'feed-since', value: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10) });
  const feed = h('div', { 'aria-live': 'polite' });
  /** The cursors of the pages before the one shown (undefined: the first page). @type {(string | undefined)[]} */
  const earlier = [];
  /** @type {string | undefined} */
  let shown;

  async function listEntries(/** @type {string | undefined} */ cursor) {
    try {
      const chosen = STATUSES.find((value) => value === status.value) || undefined;
      const { entries, nextCursor } = await api('/mapping-book/entries', { query: { status: chosen, limit: 25, cursor } });
      shown = cursor;
      const previous =
        earlier.length > 0 ? h('button', { type: 'button', onclick: () => void listEntries(earlier.pop()) }, 'Previous page') : null;
      const next = nextCursor
        ? h(
            'button',
            {
              type: 'button',
              onclick: () => {
                earlier.push(shown);
                void listEntries(nextCursor);
              },
            },
            'Next page',
          )
        : null;
      show(
        list,
        wide(
          'Entries',
          h(
            'table',
            { class: 'entries' },
            h('caption', {}, 'Entries'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Partner hotel', 'Source', 'Status', 'Reference hotel', 'Score', 'Changed'].map((name) => h('th', { scope: 'col' }, name)),
              ),
            ),
            h(
              'tbody',
              {},
              entries.length === 0
                ? h('tr', {}, h('td', { colspan: 6 }, 'No entries.'))
                : entries.map((entry) =>
                    h(
                      'tr',
                      {},
                      h(
                        'td',
                        {},
                        h('button', { type: 'button', class: 'link', onclick: () => void showEntry(entry) }, entry.partner.name),
                        h('div', { class: 'id' }, entry.partnerHotelId),
                      ),
                      h('td', {}, entry.source),
                      h('td', {}, entry.status, entry.method ? ` (${entry.method})` : ''),
                      h('td', {}, entry.referenceHotelName ?? '–'),
                      h('td', { class: 'number' }, decimal(entry.score)),
                      h('td', {}, entry.changedAt.slice(0, 16).replace('T', ' ')),
                    ),
                  ),
            ),
          ),
        ),
        h('p', { class: 'pages' }, previous, ' ', next),
      );
    } catch (error) {
      notify(`The book could not be read: ${/** @type {Error} */ (error).message}`);
    }
  }

  /** @param {Entry} entry */
  async function showEntry(entry) {
    try {
      const full = await api('/mapping-book/entry', { query: { source: entry.source, partnerHotelId: entry.partnerHotelId } });
      show(
        detail,
        h('h2', { tabindex: '-1', id: 'entry-title' }, full.partner.name),
        h(
          'p',
          {},
          `${full.status}${full.method ? ` (${full.method})` : ''}${full.confidence ? `, ${full.confidence} confidence` : ''} · ${full.referenceHotelName ?? 'no reference hotel'}${full.reasonCode ? ` · ${full.reasonCode}` : ''} · ${full.reason}`,
        ),
        supplierCodesLine(full.supplierCodes),
        wide(
          'History',
          h(
            'table',
            { class: 'history' },
            h('caption', {}, 'History, oldest first'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['When', 'Change', 'Status', 'Reason'].map((name) => h('th', { scope: 'col' }, name)),
              ),
            ),
            h(
              'tbody',
              {},
              (full.history ?? []).map((line) =>
                h(
                  'tr',
                  {},
                  h('td', {}, line.at.slice(0, 16).replace('T', ' ')),
                  h('td', {}, line.change),
                  h('td', {}, line.status),
                  h('td', {}, line.reason),
                ),
              ),
            ),
          ),
        ),
      );
      detail.querySelector('h2')?.focus();
    } catch (error) {
      notify(`The entry could not be read: ${/** @type {Error} */ (error).message}`);
    }
  }

  /** The feed since the day chosen, a page at a time: `after` is the position the last page ended at. */
  async function readFeed(/** @type {string | undefined} */ after) {
    try {
      const query = after ? { after, limit: 100 } : { since: `${since.value}T00:00:00Z`, limit: 100 };
      const page = await api('/mapping-book/changes', { query });
      const { changes } = page;
      const lines = changes.map((change) =>
        h(
          'tr',
          {},
          h('td', {}, change.changedAt.slice(0, 16).replace('T', ' ')),
          h('td', {}, change.kind),
          h('td', {}, change.partner.name),
          h('td', {}, change.status),
          h('td', {}, change.referenceHotelName ?? '–'),
          h('td', {}, change.reason),
        ),
      );
      const more = page.hasMore ? h('button', { type: 'button', onclick: () => void readFeed(page.position) }, 'More changes') : null;
      if (after) {
        feed.querySelector('tbody')?.append(...lines);
        feed.querySelector('button')?.remove();
        if (more) feed.append(more);
        return;
      }
      show(
        feed,
        wide(
          'Changes',
          h(
            'table',
            { class: 'feed' },
            h('caption', {}, `Changes since ${since.value}, oldest first`),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['When', 'Change', 'Partner hotel', 'Status', 'Reference hotel', 'Reason'].map((name) => h('th', { scope: 'col' }, name)),
              ),
            ),
            h('tbody', {}, lines.length === 0 ? h('tr', {}, h('td', { colspan: 6 }, 'No changes since then.')) : lines),
          ),
        ),
        more,
      );
    } catch (error) {
      notify(`The change feed could not be read: ${/** @type {Error} */ (error).message}`);
    }
  }

  status.addEventListener('change', () => {
    earlier.length = 0;
    void listEntries(undefined);
  });
  show(
    main,
    h('h1', {}, 'Mapping book'),
    h(
      'p',
      { class: 'queues' },
      h('a', { class: 'button', href: 'console#/book/review' }, 'Review the entries in REVIEW'),
      ' ',
      h('a', { class: 'button', href: 'console#/book/riskiest' }, 'Review the riskiest automatic answers'),
    ),
    h('p', {}, h('label', { for: 'book-status' }, 'Status '), status),
    list,
    detail,
    h(
      'section',
      { 'aria-labelledby': 'feed-title' },
      h('h2', { id: 'feed-title' }, 'Change feed'),
      h('label', { for: 'feed-since' }, 'Since '),
      since,
      ' ',
      h('button', { type: 'button', onclick: () => void readFeed(undefined) }, 'Show changes'),
      feed,
    ),
  );
  void listEntries(undefined);
  return () => {};
}
