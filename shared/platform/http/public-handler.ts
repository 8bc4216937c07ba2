/** The handler of a function whose route reads no credential (`auth: 'none'`). */
import type { Implementation } from './endpoint';
import { composeHttpFunction, type HttpFunction } from './pipeline';
import type { RouteDefinition } from './route';

export function publicHttpHandler<R extends RouteDefinition & { auth: 'none' }>(route: R, implementation: Implementation<R>): HttpFunction {
  return composeHttpFunction(route, implementation);
}
