/**
 * What one API route is: the single description from which API Gateway and the Lambda functions
 * are built (infra/), the local runtime dispatches (infra/local/), requests are validated
 * (pipeline.ts) and the OpenAPI document is generated (openapi.ts).
 */
import type * as v from 'valibot';
import type { ResourceAccess } from '../access';

export type { ResourceAccess } from '../access';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * none: no credential read. optional: a valid credential adds to the answer, an invalid one is
 * ignored. required: 401 without a valid credential. admin: also 403 unless it is an admin key.
 */
export type AuthKind = 'none' | 'optional' | 'required' | 'admin';

export type AnySchema = v.GenericSchema;

/**
 * A body a partner could send, shown by the reference and sent as it is by its "Try it out" (and by
 * test/integration/request-examples.test.ts): for multipart bodies, the text fields.
 */
export type BodyExample = Readonly<Record<string, unknown>>;

export type RequestBody =
  | { kind: 'json'; schema: AnySchema; example: BodyExample; maxBytes?: number }
  | { kind: 'form'; schema: AnySchema; example: BodyExample; maxBytes?: number }
  /** The body exactly as sent, as a string: for signatures computed over the raw bytes (webhooks). */
  | { kind: 'raw'; contentType: 'application/json'; maxBytes?: number; description: string }
  | {
      kind: 'multipart';
      /** The text fields. */
      schema: AnySchema;
      example: BodyExample;
      /** The one file part. */
      file: { field: string; maxBytes: number; description: string };
    };

export interface ResponseDescription {
  description: string;
  /** JSON body schema; omitted for empty bodies. */
  schema?: AnySchema;
  /** Non-JSON bodies (the docs page). */
  contentType?: string;
  /** Headers the answer carries: name -> what it says. */
  headers?: Readonly<Record<string, string>>;
}

/** What a function does with the bearer-token key: sign (the token endpoint), verify (every credentialed route), or nothing. */
export type TokenKeyUse = 'sign' | 'verify' | 'none';

export function tokenKeyUse(route: RouteDefinition): TokenKeyUse {
  if (route.access.signsTokens) return 'sign';
  return route.auth !== 'none' ? 'verify' : 'none';
}

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway path syntax: `/api/v1/suppliers/{supplierId}/connect`. */
  path: string;
  /** The function file under functions/, without extension: `suppliers/connect`. */
  handler: string;
  auth: AuthKind;
  summary: string;
  description?: string;
  tag: string;
  /** Since when (ISO date) and in favour of which path: answered as Deprecation and Link headers. */
  deprecated?: { since: string; successor: string };
  params?: AnySchema;
  query?: AnySchema;
  body?: RequestBody;
  responses: Record<number, ResponseDescription>;
  access: ResourceAccess;
  /** Not a partner operation (the Stripe webhook; the reference page and its files): left out of the partner reference. */
  internal?: true;
  /**
   * A create or a charge: with an Idempotency-Key header, a repeated request answers the first
   * answer again instead of doing it twice (idempotency.ts). `sealed`: the answer holds a secret,
   * so it is kept encrypted (the route seals and opens secrets).
   */
  idempotent?: true | 'sealed';
  /**
   * Lambda sizing beyond the defaults (256 MB, 10 s, nothing reserved). Reserved concurrency both
   * guarantees a function its share when the account is busy and caps it there.
   */
  lambda?: { memoryMb?: number; timeoutSeconds?: number; reservedConcurrency?: number };
  /**
   * API Gateway's limit on this method, shared by every caller: requests a second and the burst
   * above them. For methods cheap to call and dear to answer (a token, a search, a file); the rest
   * share the stage's limit, which stays the ceiling (infra/constructs/hotel-mapping-api.ts). One
   * organization gets its share of it (organizationShareOfRoute), one client IP of a public one its
   * share at the edge (infra/constructs/edge-protection.ts).
   */
  throttle?: MethodThrottle;
}

/**
 * What one organization may send a second, over all its credentials and routes: its own share, so
 * that no tenant's burst slows another's (the stage's throttle is the account's ceiling, far above
 * it). Counted in the table (platform/rate-limits.ts); the deployment may set another.
 */
export const ORGANIZATION_REQUESTS_PER_SECOND = 50;

/**
 * Of a credentialed route with a throttle of its own, one organization may send a second at most
 * this share of it (at least one request): the method's throttle is every tenant's together, and no
 * one of them alone can use it up.
 */
export const ORGANIZATION_SHARE_OF_A_ROUTE = 0.25;

/** What one organization may send a second of a route with this throttle, at the default share. */
export const organizationShareOfRoute = (throttle: MethodThrottle) =>
  Math.max(1, Math.floor(throttle.ratePerSecond * ORGANIZATION_SHARE_OF_A_ROUTE));

export interface MethodThrottle {
  ratePerSecond: number;
  burst: number;
}

/** Keeps each route's literal schema types so handlers get typed requests. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** The Lambda function's logical name for a route: `suppliers/connect` -> `SuppliersConnect`. */
export function functionName(route: Pick<RouteDefinition, 'handler'>): string {
  return route.handler
    .split(/[/_-]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The API's operations refuse query parameters they do not take (400); the reference page and its
 * assets, opened by browsers with whatever query a link adds, do not.
 */
export function refusesUnknownQuery(route: Pick<RouteDefinition, 'path'>): boolean {
  return route.path.startsWith('/api/');
}

/** How long an idempotent route keeps the answer to an Idempotency-Key. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** A function's sizing when its route or queue sets none. */
export const DEFAULT_LAMBDA = { memoryMb: 256, timeoutSeconds: 10 } as const;

/** Default maximum JSON or form body size. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** Bodies API Gateway passes to Lambda base64-encoded (the REST API's binary media types). */
export const BINARY_MEDIA_TYPES = ['multipart/form-data', 'application/octet-stream', 'application/gzip'] as const;

/**
 * Answers of at least this many bytes are compressed on the wire when the client accepts it (gzip
 * or deflate; API Gateway's minimumCompressionSize, and the local runtime likewise): a results page
 * of JSON shrinks to about a fifth, and below a kilobyte compressing gains little.
 */
export const MINIMUM_COMPRESSION_BYTES = 1024;

export function isBinaryMediaType(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return (BINARY_MEDIA_TYPES as readonly string[]).includes(mediaType);
}

/** API Gateway's own request size limit (REST APIs). */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
