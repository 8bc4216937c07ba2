/** What the HTTP middlewares build up for the endpoint: the request as its implementation sees it. */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal } from '../../auth/principal';
import type { Headers } from '../endpoint';

export interface RequestState {
  params: unknown;
  query: unknown;
  body: unknown;
  principal: Principal | undefined;
  headers: Headers;
  requestId: string;
  baseUrl: string;
  startedAt: number;
}

export interface HttpContext extends Context {
  /** Filled by the middlewares, in order: request-log, authentication, path-and-query, body. */
  http: RequestState;
}

export type HttpMiddleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;
