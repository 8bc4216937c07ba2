/** The handler of a function whose route reads no credential (`auth: 'none'`). */
import type { Endpoint } from './endpoint';
import { composeHttpFunction, type HttpFunction } from './pipeline';
import type { RouteDefinition } from './route';

export function publicHttpHandler<R extends RouteDefinition & { auth: 'none' }>(endpoint: Endpoint<R>): HttpFunction {
  return composeHttpFunction(endpoint);
}
