// @ts-check
/**
 * The public API, called with the key a person signed in with. The key lives in this tab's
 * sessionStorage only: never in a URL, a cookie or a log, and gone when the tab closes.
 */

const KEY = 'hotel-mapping.api-key';

export const session = {
  /** @returns {string | null} */
  get key() {
    return sessionStorage.getItem(KEY);
  },
  /** @param {string} key */
  signIn(key) {
    sessionStorage.setItem(KEY, key);
  },
  signOut() {
    sessionStorage.removeItem(KEY);
  },
};

export class ApiError extends Error {
  /** @param {number} status @param {string} error @param {string} message */
  constructor(status, error, message) {
    super(message);
    this.status = status;
    this.error = error;
  }
}

/** Tries of a request the API throttled (429), each after the Retry-After it gave. */
const THROTTLED_TRIES = 4;

/**
 * @param {string} path under /api/v1/
 * @param {{ method?: string, query?: Record<string, string | number | undefined>, body?: unknown, key?: string, headers?: Record<string, string>, keepalive?: boolean }} [options]
 * @returns {Promise<any>}
 */
export async function api(
  path,
  { method = 'GET', query = {}, body, key = session.key ?? '', headers: extra = {}, keepalive = false } = {},
) {
  const url = new URL(`api/v1/${path}`, document.baseURI);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  /** @type {Record<string, string>} */
  const headers = { ...extra, 'x-api-key': key, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { method, headers, keepalive, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 429 && attempt < THROTTLED_TRIES) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? attempt)));
      continue;
    }
    const answer = response.status === 204 ? undefined : await response.json().catch(() => undefined);
    if (response.ok) return answer;
    if (response.status === 401 && key === session.key) window.dispatchEvent(new Event('signed-out'));
    throw new ApiError(response.status, answer?.error ?? 'error', answer?.message ?? `The API answered ${response.status}.`);
  }
}

/**
 * Every page of a cursor-paged list.
 * @param {string} path @param {string} field the page's array @param {Record<string, string | number | undefined>} query
 * @param {(read: number) => void} [progress]
 * @returns {Promise<any[]>}
 */
export async function readAll(path, field, query, progress) {
  const items = [];
  /** @type {string | undefined} */
  let cursor;
  do {
    const page = await api(path, { query: { ...query, cursor } });
    items.push(...page[field]);
    progress?.(items.length);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
