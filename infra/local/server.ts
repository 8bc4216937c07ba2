/**
 * The local runtime's HTTP server: turns each request into the API Gateway (REST, proxy) event
 * the deployed API would send, and invokes the real handler found through the route table.
 * Gateway behaviour is reproduced where partners can see it: 404 for an unknown path, 405 for a
 * known path with another method, 413 over the gateway's body limit, base64 bodies for binary
 * media types.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routeList } from '../../shared/routes';
import { errorBody, statusName } from '../../shared/platform/http/errors';
import type { HttpFunction, LambdaHandler } from '../../shared/platform/http/pipeline';
import { DEFAULT_LAMBDA, GATEWAY_MAX_BODY_BYTES, isBinaryMediaType, type RouteDefinition } from '../../shared/platform/http/route';
import type { Runtime } from '../../shared/platform/runtime';

/** Node's default; API Gateway allows about 10 KB of headers. */
const MAX_HEADER_BYTES = 16 * 1024;

const CUT_OFF_MESSAGE = 'The request body ended before its declared length.';

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
  /** Sees every answer of a route's function (the tests check it against the route's documented responses). */
  onResponse?: (route: RouteDefinition, result: APIGatewayProxyResult) => void;
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

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
    dispatch(request, response).catch((error: unknown) => {
      process.stderr.write(`local runtime: ${String((error as Error)?.stack ?? error)}\n`);
      if (!response.headersSent) sendError(response, 500, 'An unexpected error occurred in the local runtime.');
      else response.end();
    });
  });
  // Requests Node cannot parse (oversized URL or headers, malformed framing) get the same
  // {error, message} body as everything else, not Node's empty answer.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB.`]
        : error.code === 'HPE_INVALID_EOF_STATE'
          ? [400, CUT_OFF_MESSAGE]
          : [400, 'The request could not be parsed as HTTP.'];
    const body = JSON.stringify(errorBody(status, message));
    socket.end(
      `HTTP/1.1 ${status} ${statusName(status)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;

  async function dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    for (const page of options.pages ?? []) {
      if (await page(request, response, url)) return;
    }
    const method = (request.method ?? 'GET').toUpperCase();
    const matches = compiled
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(url.pathname) }))
      .filter((found) => found.match !== null);
    if (matches.length === 0) {
      return sendError(response, 404, `No endpoint at ${url.pathname}.`);
    }
    const forMethod = matches
      .filter(({ candidate }) => candidate.route.method === method)
      // API Gateway prefers literal path segments over parameters.
      .sort((a, b) => b.candidate.literalSegments - a.candidate.literalSegments)[0];
    if (!forMethod) {
      response.setHeader('allow', [...new Set(matches.map(({ candidate }) => candidate.route.method))].join(', '));
      return sendError(response, 405, `${method} is not allowed on ${url.pathname}.`);
    }
    const body = await readBody(request);
    if (body === 'too_large') return sendError(response, 413, `The request body exceeds ${GATEWAY_MAX_BODY_BYTES} bytes.`);
    // As API Gateway: a body that ends before its Content-Length never reaches a function.
    if (body === 'cut_off') return sendError(response, 400, CUT_OFF_MESSAGE);

    const { candidate, match } = forMethod;
    const pathParameters = decodedParameters(candidate, match!);
    if (!pathParameters) return sendError(response, 400, `The path ${url.pathname} is not valid percent-encoding.`);
    const event = toEvent(request, url, candidate, pathParameters, body);
    // As Lambda gives it: the invocation's time runs out at the function's timeout.
    const deadline = Date.now() + (candidate.route.lambda?.timeoutSeconds ?? DEFAULT_LAMBDA.timeoutSeconds) * 1000;
    const context = { awsRequestId: event.requestContext.requestId, functionName: candidate.route.handler, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
    const result = await (await handlerFor(candidate.route))(event, context);
    options.onResponse?.(candidate.route, result);
    response.writeHead(result.statusCode, (result.headers ?? {}) as Record<string, string>);
    response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  }
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

function toEvent(
  request: IncomingMessage,
  url: URL,
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
  const requestId = randomUUID();
  return {
    resource: compiled.route.path,
    path: url.pathname,
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
      path: url.pathname,
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

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(errorBody(status, message)));
}
