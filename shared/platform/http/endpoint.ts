/**
 * What an endpoint's implementation receives and answers. Capabilities write each implementation
 * as a const arrow function typed `Implementation<typeof theirRoutes.someRoute>`; the function file
 * under functions/ pairs it with its route (a handler of shared/api-keys/handlers.ts, or publicHttpHandler). Plain function values, unlike calls, are
 * dropped by esbuild when a function does not use them, so each Lambda bundles only its own.
 */
import type * as v from 'valibot';
import type { Headers, Principal } from '../auth/principal';
import type { Runtime } from '../runtime';
import type { UploadedFile } from './multipart';
import type { AnySchema, RouteDefinition } from './route';

export type { Headers } from '../auth/principal';
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

/** A validated request, typed from its route's schemas. */
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

/**
 * An implementation's answer, typed from its route's responses: one of the route's success
 * statuses, with a JSON body of that response's schema (or none where it documents none). Errors
 * are thrown (platform/errors.ts), so they are not among them. A view that drifts from its
 * documented schema does not compile.
 */
export type Answer<R extends RouteDefinition> = {
  [S in keyof R['responses'] & number]: `${S}` extends `2${string}` | `3${string}` ? AnswerWith<S, R['responses'][S]> : never;
}[keyof R['responses'] & number];

type AnswerWith<S extends number, D> = D extends { schema: infer B extends AnySchema }
  ? { status: S; json: v.InferOutput<B>; headers?: Record<string, string> }
  : { status: S; json?: undefined; text?: string; contentType?: string; headers?: Record<string, string> };

export type Implementation<R extends RouteDefinition> = (request: HttpRequest<R>, runtime: Runtime) => Promise<Answer<R>>;
