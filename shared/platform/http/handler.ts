/**
 * The one wrapper every Lambda handler goes through: authenticate, decode and validate the request
 * against its route's schemas, call the handler's own code, and shape the answer. Every failure
 * becomes `{error, message}`; an unexpected one is logged with the request id and answered 500
 * without internals.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import * as v from 'valibot';
import { hasCredential, type Headers } from '../auth/authenticate';
import type { Principal } from '../auth/credentials';
import { DomainError, forbidden, invalidInput } from '../errors';
import { describeError, log } from '../logging';
import { createDependencies, type Dependencies } from '../runtime';
import { loadConfig } from '../config';
import { describeFailure, errorBody, HttpError } from './errors';
import { parseMultipart, type UploadedFile } from './multipart';
import { DEFAULT_MAX_BODY_BYTES, type AnySchema, type RequestBody, type RouteDefinition } from './route';

export type { UploadedFile } from './multipart';

type Output<S> = S extends AnySchema ? v.InferOutput<S> : Record<string, never>;
type BodyOf<B> = B extends { kind: 'multipart'; schema: infer S }
  ? Output<S> & { file: UploadedFile }
  : B extends { kind: 'raw' }
    ? string
    : B extends { schema: infer S }
      ? Output<S>
      : undefined;
type PrincipalOf<A> = A extends 'required' | 'admin' ? Principal : Principal | undefined;

export interface HttpRequest<R extends RouteDefinition> {
  params: Output<R['params']>;
  query: Output<R['query']>;
  body: BodyOf<R['body']>;
  principal: PrincipalOf<R['auth']>;
  headers: Headers;
  requestId: string;
  /** The API's own base URL as the caller reached it, stage prefix included. */
  baseUrl: string;
}

export interface HttpResult {
  status: number;
  /** A JSON body; omit for an empty body. */
  json?: unknown;
  /** A non-JSON body, with its content type. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export type LambdaHandler = (
  event: APIGatewayProxyEvent,
  context?: { awsRequestId?: string },
) => Promise<APIGatewayProxyResult>;

export interface RouteHandler extends LambdaHandler {
  /** The same handler over other dependencies (the local runtime, tests). */
  withDependencies(dependencies: Dependencies): LambdaHandler;
}

export type Implementation<R extends RouteDefinition> = (
  request: HttpRequest<R>,
  dependencies: Dependencies,
) => Promise<HttpResult>;

let productionDependencies: Dependencies | undefined;

export function defineHandler<R extends RouteDefinition>(route: R, implementation: Implementation<R>): RouteHandler {
  const bind =
    (dependencies: () => Dependencies): LambdaHandler =>
    (event, context) =>
      handle(route, implementation, dependencies(), event, context?.awsRequestId);
  const handler = bind(() => (productionDependencies ??= createDependencies(loadConfig()))) as RouteHandler;
  handler.withDependencies = (dependencies) => bind(() => dependencies);
  return handler;
}

async function handle<R extends RouteDefinition>(
  route: R,
  implementation: Implementation<R>,
  dependencies: Dependencies,
  event: APIGatewayProxyEvent,
  awsRequestId: string | undefined,
): Promise<APIGatewayProxyResult> {
  const startedAt = Date.now();
  const requestId = event.requestContext?.requestId ?? awsRequestId ?? 'local';
  const headers = lowerCaseHeaders(event.headers);
  let principal: Principal | undefined;
  let result: APIGatewayProxyResult;
  try {
    principal = await authenticate(route, headers, dependencies);
    const request = {
      params: validate(route.params, event.pathParameters ?? {}, 'path'),
      query: validate(route.query, event.queryStringParameters ?? {}, 'query'),
      body: route.body ? await decodeBody(route.body, event, headers) : undefined,
      principal,
      headers,
      requestId,
      baseUrl: baseUrlOf(event, headers),
    } as HttpRequest<R>;
    result = toResponse(await implementation(request, dependencies));
  } catch (error) {
    result = failureResponse(error, requestId, route);
  }
  log('info', 'request', {
    requestId,
    method: route.method,
    route: route.path,
    status: result.statusCode,
    durationMs: Date.now() - startedAt,
    organizationId: principal?.organizationId,
  });
  return result;
}

async function authenticate(
  route: RouteDefinition,
  headers: Headers,
  dependencies: Dependencies,
): Promise<Principal | undefined> {
  if (route.auth === 'none') return undefined;
  const now = dependencies.clock.now();
  if (route.auth === 'optional') {
    if (!hasCredential(headers)) return undefined;
    try {
      return await dependencies.authenticator.authenticate(headers, now);
    } catch (error) {
      if (error instanceof DomainError) return undefined;
      throw error;
    }
  }
  const principal = await dependencies.authenticator.authenticate(headers, now);
  if (route.auth === 'admin' && principal.role !== 'admin') {
    throw forbidden('This operation needs an admin API key.');
  }
  return principal;
}

function validate(schema: AnySchema | undefined, input: unknown, where: string): unknown {
  if (!schema) return {};
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw invalidInput(describeIssue(result.issues[0], where));
}

/** One readable sentence naming the field: "supplierName is required", "limit: must be ...". */
function describeIssue(issue: v.BaseIssue<unknown>, where: string): string {
  const path = v.getDotPath(issue);
  if (issue.expected === 'never') {
    return `Unknown field "${path ?? String(issue.input)}" in the ${where}.`;
  }
  if (path && issue.kind === 'schema' && issue.received === 'undefined') return `${path} is required.`;
  return path ? `${path}: ${issue.message}` : `Invalid ${where}: ${issue.message}`;
}

async function decodeBody(body: RequestBody, event: APIGatewayProxyEvent, headers: Headers): Promise<unknown> {
  const raw = event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  if (body.kind === 'multipart') {
    if (!contentType.startsWith('multipart/form-data')) {
      throw new HttpError(415, 'Content-Type must be multipart/form-data.');
    }
    const { fields, file } = await parseMultipart(raw, headers['content-type']!, body.file);
    const parsedFields = validate(body.schema, fields, 'form data') as Record<string, unknown>;
    return { ...parsedFields, file };
  }
  const maxBytes = body.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (raw.length > maxBytes) throw new HttpError(413, `The request body exceeds ${maxBytes} bytes.`);
  if (raw.length === 0) {
    throw invalidInput(body.kind === 'form' ? 'A form-encoded request body is required.' : 'A JSON request body is required.');
  }
  if (body.kind === 'json' || body.kind === 'raw') {
    if (!/^application\/([\w.+-]+\+)?json\b/.test(contentType)) {
      throw new HttpError(415, 'Content-Type must be application/json.');
    }
    if (body.kind === 'raw') return raw.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalidInput('The request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidInput('The request body must be a JSON object.');
    }
    return validate(body.schema, parsed, 'body');
  }
  if (!contentType.startsWith('application/x-www-form-urlencoded')) {
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded.');
  }
  return validate(body.schema, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))), 'body');
}

/** `https://<host>/<stage>`: requestContext.path carries the stage prefix that event.path lacks. */
function baseUrlOf(event: APIGatewayProxyEvent, headers: Headers): string {
  const proto = headers['x-forwarded-proto'] ?? 'https';
  const host = headers['host'] ?? event.requestContext?.domainName ?? 'localhost';
  const fullPath = event.requestContext?.path ?? event.path;
  const stagePrefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${stagePrefix}`;
}

function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers'] | null | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) lowered[name.toLowerCase()] = value;
  }
  return lowered;
}

function toResponse(result: HttpResult): APIGatewayProxyResult {
  if (result.text !== undefined) {
    return {
      statusCode: result.status,
      headers: { 'content-type': result.contentType ?? 'text/plain; charset=utf-8', ...result.headers },
      body: result.text,
    };
  }
  if (result.json === undefined) return { statusCode: result.status, headers: { ...result.headers }, body: '' };
  return {
    statusCode: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...result.headers },
    body: JSON.stringify(result.json),
  };
}

function failureResponse(error: unknown, requestId: string, route: RouteDefinition): APIGatewayProxyResult {
  const known = describeFailure(error);
  if (known) {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (known.status === 401) headers['www-authenticate'] = 'Bearer';
    return { statusCode: known.status, headers, body: JSON.stringify(known.body) };
  }
  log('error', 'unexpected failure', { requestId, route: route.path, ...describeError(error) });
  return {
    statusCode: 500,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(errorBody(500, `An unexpected error occurred. Reference: ${requestId}.`)),
  };
}
