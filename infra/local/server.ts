/**
 * The local runtime's HTTP server: turns each request into the API Gateway (REST, proxy) event
 * the deployed API would send, and invokes the real handler found through the route table.
 * Gateway behaviour is reproduced where partners can see it: 404 for an unknown path, 405 for a
 * known path with another method (both with the request's X-Request-Id), 413 over the gateway's
 * body limit, 408 for a request that takes too long to arrive, base64 bodies for binary media
 * types, answers compressed for clients that accept it, and the path matched as sent (dot
 * segments, encoded or not, are never resolved).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync, gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import Negotiator from 'negotiator';
import { routeList } from '../../shared/routes';
import { errorBody, statusName } from '../../shared/platform/http/errors';
import type { HttpFunction, LambdaHandler } from '../../shared/platform/http/pipeline';
import {
  DEFAULT_LAMBDA,
  GATEWAY_MAX_BODY_BYTES,
  isBinaryMediaType,
  MINIMUM_COMPRESSION_BYTES,
  type RouteDefinition,
} from '../../shared/platform/http/route';
import { withInvocation } from '../../shared/platform/logging';
import type { Runtime } from '../../shared/platform/runtime';

/** Node's default; API Gateway allows about 10 KB of headers. */
const MAX_HEADER_BYTES = 16 * 1024;

const CUT_OFF_MESSAGE = 'The request body ended before its declared length.';

/**
 * A request (headers and body) must arrive within this: a body that trickles in is answered 408
 * and its connection closed, instead of holding a connection for Node's default five minutes.
 * API Gateway gives its integration 29 s; the whole request gets about as long here.
 */
const REQUEST_TIMEOUT_MS = 30_000;

/** How long an idle connection is kept for the client's next request. */
const IDLE_CONNECTION_MS = 65_000;

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions');

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  parameterNames: string[];
  literalSegments: number;
}

/** Extra pages the local runtime serves beside the API (e.g. the local payment provider's). */
export type LocalPage = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

export interface LocalApiOptions {
  runtime: Runtime;
  routes?: readonly RouteDefinition[];
  pages?: LocalPage[];
  /**
   * Sees every answer of a route's function, how long the function took and the bytes its body took
   * on the wire (the tests check the answer against the route's documented responses; bench:cost
   * prices the time and the transfer out).
   */
  onResponse?: (route: RouteDefinition, result: APIGatewayProxyResult, durationMs: number, wireBytes: number) => void;
  /** How long a request may take to arrive (tests shorten it). */
  requestTimeoutMs?: number;
}

export function createLocalApi(options: LocalApiOptions): Server {
  const compiled = (options.routes ?? routeList).map(compile);
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const handlerFor = (route: RouteDefinition) => {
    let handler = handlers.get(route.handler);
    if (!handler) {
      handler = loadHandler(route, options.runtime);
      handlers.set(route.handler, handler);
    }
    return handler;
  };

  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout,
      headersTimeout: requestTimeout,
      // Node looks for requests past their time this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, requestTimeout / 5),
      // Clients keep an idle connection to send the next request on. Node closes one after 5 s by
      // default, which races with a client reusing it after a pause (its request is then reset);
      // API Gateway keeps idle connections far longer.
      keepAliveTimeout: IDLE_CONNECTION_MS,
    },
    (request, response) => {
      const requestId = randomUUID();
      dispatch(request, response, requestId).catch((error: unknown) => {
        process.stderr.write(`local runtime: ${String((error as Error)?.stack ?? error)}\n`);
        if (!response.headersSent) sendError(response, requestId, 500, 'An unexpected error occurred in the local runtime.');
        else response.end();
      });
    },
  );
  // Requests Node cannot parse (oversized URL or headers, malformed framing) get the same
  // {error, message} body as everything else, not Node's empty answer.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB.`]
        : error.code === 'HPE_INVALID_EOF_STATE'
          ? [400, CUT_OFF_MESSAGE]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, `The request did not arrive within ${requestTimeout / 1000} s.`]
            : [400, 'The request could not be parsed as HTTP.'];
    const body = JSON.stringify(errorBody(status, message));
    socket.end(
      `HTTP/1.1 ${status} ${statusName(status)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;

  async function dispatch(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    for (const page of options.pages ?? []) {
      if (await page(request, response, url)) return;
    }
    const path = pathAsSent(request.url ?? '/', url);
    const method = (request.method ?? 'GET').toUpperCase();
    const matches = compiled
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(path) }))
      .filter((found) => found.match !== null);
    if (matches.length === 0) {
      return sendError(response, requestId, 404, `No endpoint at ${path}.`);
    }
    const forMethod = matches
      .filter(({ candidate }) => candidate.route.method === method)
      // API Gateway prefers literal path segments over parameters.
      .sort((a, b) => b.candidate.literalSegments - a.candidate.literalSegments)[0];
    if (!forMethod) {
      response.setHeader('allow', [...new Set(matches.map(({ candidate }) => candidate.route.method))].join(', '));
      return sendError(response, requestId, 405, `${method} is not allowed on ${path}.`);
    }
    const body = await readBody(request);
    if (body === 'too_large') return sendError(response, requestId, 413, `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`);
    // As API Gateway: a body that ends before its Content-Length never reaches a function.
    if (body === 'cut_off') return sendError(response, requestId, 400, CUT_OFF_MESSAGE);

    const { candidate, match } = forMethod;
    const pathParameters = decodedParameters(candidate, match!);
    if (!pathParameters) return sendError(response, requestId, 400, `The path ${path} is not valid percent-encoding.`);
    const event = toEvent(request, url, path, requestId, candidate, pathParameters, body);
    // As Lambda gives it: the invocation's time runs out at the function's timeout.
    const deadline = Date.now() + (candidate.route.lambda?.timeoutSeconds ?? DEFAULT_LAMBDA.timeoutSeconds) * 1000;
    const context = {
      awsRequestId: event.requestContext.requestId,
      functionName: candidate.route.handler,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    const handler = await handlerFor(candidate.route);
    const started = performance.now();
    const result = await withInvocation({ functionName: context.functionName, requestId: context.awsRequestId }, () =>
      handler(event, context),
    );
    const durationMs = performance.now() - started;
    const answer = onTheWire(request, Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
    options.onResponse?.(candidate.route, result, durationMs, answer.body.length);
    response.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), ...answer.headers });
    response.end(answer.body);
  }
}

/**
 * The body as API Gateway sends it with compression on: from MINIMUM_COMPRESSION_BYTES, in the
 * coding the client prefers of those the gateway supports (gzip, deflate), else as it is.
 */
function onTheWire(request: IncomingMessage, body: Buffer): { body: Buffer; headers: Record<string, string> } {
  if (body.length < MINIMUM_COMPRESSION_BYTES) return { body, headers: {} };
  const [coding] = new Negotiator(request).encodings(['gzip', 'deflate', 'identity']);
  if (coding === 'gzip') return { body: gzipSync(body), headers: { 'content-encoding': 'gzip' } };
  if (coding === 'deflate') return { body: deflateSync(body), headers: { 'content-encoding': 'deflate' } };
  return { body, headers: {} };
}

async function loadHandler(route: RouteDefinition, runtime: Runtime): Promise<LambdaHandler> {
  const module = (await import(pathToFileURL(join(FUNCTIONS_DIR, `${route.handler}.ts`)).href)) as {
    handler: HttpFunction;
  };
  return module.handler.withRuntime(runtime);
}

function compile(route: RouteDefinition): CompiledRoute {
  const parameterNames: string[] = [];
  let literalSegments = 0;
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (parameter) {
        parameterNames.push(parameter[1]!);
        return '([^/]+)';
      }
      if (segment) literalSegments++;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), parameterNames, literalSegments };
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too_large' | 'cut_off'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    // Node reports a client that hangs up mid-body as an 'aborted' error on the request.
    request.on('error', () => resolve('cut_off'));
  });
}

/** Path parameters as API Gateway hands them over, decoded; undefined when one is not valid percent-encoding. */
function decodedParameters(compiled: CompiledRoute, match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(compiled.parameterNames.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    return undefined;
  }
}

/**
 * The path as the request line has it: API Gateway matches segments as sent, so `..` and `%2E%2E`
 * are literal segments, never resolved into another route (URL parsing would resolve them).
 */
function pathAsSent(target: string, url: URL): string {
  if (!target.startsWith('/')) return url.pathname;
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  // Each other segment percent-encoded as URL parsing would, on its own so that nothing is resolved
  // (a backslash too, which URL parsing would take for a slash).
  return path
    .split('/')
    .map((segment) =>
      DOT_SEGMENT.test(segment) ? segment : new URL(`http://localhost/${segment.replaceAll('\\', '%5C')}`).pathname.slice(1),
    )
    .join('/');
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function toEvent(
  request: IncomingMessage,
  url: URL,
  path: string,
  requestId: string,
  compiled: CompiledRoute,
  pathParameters: Record<string, string>,
  body: Buffer,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // Every line of a repeated header (request.headers drops or joins repeats), and the last as the value, as API Gateway hands them over.
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (values === undefined) continue;
    headers[name] = values[values.length - 1]!;
    multiValueHeaders[name] = values;
  }
  // API Gateway sets the scheme itself (always https); here it is plain HTTP, whatever the caller sent.
  headers['x-forwarded-proto'] = 'http';
  // No prototype: a parameter named toString or __proto__ is just a parameter.
  const query = Object.create(null) as Record<string, string>;
  const multiValueQuery = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    (multiValueQuery[name] ??= []).push(value);
  }
  const binary = isBinaryMediaType(headers['content-type']);
  return {
    resource: compiled.route.path,
    path,
    httpMethod: compiled.route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: Object.keys(multiValueQuery).length ? multiValueQuery : null,
    pathParameters: compiled.parameterNames.length ? pathParameters : null,
    stageVariables: null,
    body: body.length ? body.toString(binary ? 'base64' : 'utf8') : null,
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      requestId,
      path,
      stage: 'local',
      // The address this server answers on, as API Gateway names its own domain: never the Host header.
      domainName: hostOf(request.socket.localAddress ?? '127.0.0.1', request.socket.localPort ?? 80),
      httpMethod: compiled.route.method,
      resourcePath: compiled.route.path,
      identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

/** `127.0.0.1:3000`, `[::1]:3000`. */
function hostOf(address: string, port: number): string {
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** The runtime's own answers, as the gateway's: with its request id (infra/constructs/hotel-mapping-api.ts). */
function sendError(response: ServerResponse, requestId: string, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
  response.end(JSON.stringify(errorBody(status, message)));
}
