// @ts-check
/**
 * The public API, called with the key a person signed in with. The key lives in this tab's
 * sessionStorage only: never in a URL, a cookie or a log, and gone when the tab closes.
 *
 * A call names its operation as the API's OpenAPI document does, by its path under /api/v1 and its
 * method, and is typed by it: its path parameters, query and body, and its answer (the 2xx
 * response's JSON). The types are api-types.d.ts, generated from the document by
 * `npm run console:types`; they are only checked, never served.
 *
 *   api('/mapping/{jobId}/results', { path: { jobId }, query: { status: 'REVIEW' } })
 */

/** @import { paths } from './api-types.js' */

/**
 * A path of the API as the document writes it, less the /api/v1 that api() puts before it.
 * @typedef {keyof paths extends infer K ? (K extends `/api/v1${infer P}` ? P : never) : never} Path
 */
/** @typedef {'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH'} Method */
/**
 * The document's operations at a path, one per method.
 * @template {Path} P
 * @typedef {paths[`/api/v1${P}`]} PathItem
 */
/**
 * The methods a path takes.
 * @template {Path} P
 * @typedef {{ [M in Method]: PathItem<P>[Lowercase<M>] extends undefined ? never : M }[Method]} MethodOf
 */
/**
 * @template {Path} P
 * @template {Method} M
 * @typedef {NonNullable<PathItem<P>[Lowercase<M>]>} Operation
 */
/**
 * An operation's JSON body, where it takes one.
 * @template O
 * @typedef {O extends { requestBody?: infer R }
 *   ? [R] extends [undefined] ? { body?: undefined }
 *   : NonNullable<R> extends { content: { 'application/json': infer B } } ? (undefined extends R ? { body?: B } : { body: B })
 *   : { body?: undefined }
 *   : never} BodyOf
 */
/**
 * What a call says besides its path: the operation's path parameters, query and body; its method
 * (GET unless said); and the key, further headers, and whether the request outlives the page.
 * @template {Path} P
 * @template {Method} M
 * @typedef {Pick<Operation<P, M>['parameters'], 'path' | 'query'> & BodyOf<Operation<P, M>>
 *   & (M extends 'GET' ? { method?: M } : { method: M })
 *   & { key?: string, headers?: Record<string, string>, keepalive?: boolean }} Options
 */
/**
 * What an operation takes as its query.
 * @template {Path} P
 * @template {Method} [M='GET']
 * @typedef {NonNullable<Options<P, M>['query']>} Query
 */
/**
 * The JSON of a response with a 2xx status; undefined for one without content (204).
 * @template R
 * @typedef {{ [S in keyof R]: `${S & number}` extends `2${string}` ? (R[S] extends { content: { 'application/json': infer J } } ? J : undefined) : never }[keyof R]} SuccessOf
 */
/**
 * What an operation answers.
 * @template {Path} P
 * @template {Method} M
 * @typedef {SuccessOf<Operation<P, M>['responses']>} Answer
 */
/**
 * What an operation takes as its JSON body.
 * @template {Path} P
 * @template {Method} M
 * @typedef {NonNullable<BodyOf<Operation<P, M>>['body']>} RequestBody
 */
/**
 * The paths whose GET answers a page of a list with the cursor of the next (`nextCursor`).
 * @typedef {{ [P in Path]: 'GET' extends MethodOf<P> ? (Answer<P, 'GET'> extends { nextCursor: string | null } ? P : never) : never }[Path]} PagedPath
 */
/**
 * The fields of a page that hold its list.
 * @template {PagedPath} P
 * @typedef {{ [F in keyof Answer<P, 'GET'>]: Answer<P, 'GET'>[F] extends unknown[] ? F : never }[keyof Answer<P, 'GET'>]} ListField
 */
/**
 * A request as it is sent, whatever its operation.
 * @typedef {{ method?: string, path?: Record<string, string | number | boolean>, query?: Record<string, string | number | boolean | undefined>, body?: unknown, key?: string, headers?: Record<string, string>, keepalive?: boolean }} SentRequest
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

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => typeof value === 'object' && value !== null;
/** @param {unknown} value @returns {value is unknown[]} */
const isList = (value) => Array.isArray(value);

/**
 * The path with its parameters filled in, each encoded.
 * @param {string} path @param {Record<string, string | number | boolean> | undefined} parameters
 */
function filled(path, parameters) {
  return path.replace(/\{([^}]+)\}/g, (_, /** @type {string} */ name) => {
    const value = parameters?.[name];
    if (value === undefined) throw new Error(`${path} needs its parameter ${name}.`);
    return encodeURIComponent(String(value));
  });
}

/**
 * One request, sent again while the API throttles it; its JSON answer (undefined for none), or an
 * ApiError with the API's {error, message}.
 * @param {string} path @param {SentRequest} request
 * @returns {Promise<unknown>}
 */
async function send(
  path,
  { method = 'GET', path: parameters, query = {}, body, key = session.key ?? '', headers: extra = {}, keepalive = false },
) {
  const url = new URL(`api/v1${filled(path, parameters)}`, document.baseURI);
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
    /** @type {unknown} */
    const answer = response.status === 204 ? undefined : await response.json().catch(() => undefined);
    if (response.ok) return answer;
    if (response.status === 401 && key === session.key) window.dispatchEvent(new Event('signed-out'));
    const said = isObject(answer) ? answer : {};
    throw new ApiError(
      response.status,
      typeof said.error === 'string' ? said.error : 'error',
      typeof said.message === 'string' ? said.message : `The API answered ${response.status}.`,
    );
  }
}

/**
 * Calls one operation of the API. Its answer is taken to be what the document says: the API's tests
 * check every answer they get against it (test/support/test-api.ts).
 * @template {Path} P
 * @template {MethodOf<P>} [M=Extract<MethodOf<P>, 'GET'>]
 * @param {P} path the document's path under /api/v1, with its parameters in braces
 * @param {Options<P, M>} options
 * @returns {Promise<Answer<P, M>>}
 */
export async function api(path, options) {
  return /** @type {Answer<P, M>} */ (await send(path, options));
}

/**
 * Every page of a cursor-paged list: the list `field` of each page, read until the last.
 * @template {PagedPath} P
 * @template {ListField<P>} F
 * @param {P} path @param {F} field the page's list @param {Options<P, 'GET'>} options but the cursor
 * @param {(read: number) => void} [progress]
 * @returns {Promise<Answer<P, 'GET'>[F]>}
 */
export async function readAll(path, field, options, progress) {
  /** @type {SentRequest} */
  const request = options;
  const name = String(field);
  const items = [];
  /** @type {string | undefined} */
  let cursor;
  do {
    const page = await send(path, { ...request, query: { ...request.query, cursor } });
    const list = isObject(page) ? page[name] : undefined;
    if (!isList(list)) throw new Error(`${path} answered no list ${name}.`);
    items.push(...list);
    progress?.(items.length);
    const next = isObject(page) ? page.nextCursor : undefined;
    cursor = typeof next === 'string' ? next : undefined;
  } while (cursor);
  return /** @type {Answer<P, 'GET'>[F]} */ (items);
}
