/**
 * The handler of a function whose route takes a credential (`optional`, `required`, `admin`): the
 * HTTP pipeline with authentication. Routes without one use public-handler.ts, so that they bundle
 * neither the key store nor the token verifier; routes that create or charge use
 * idempotent-handler.ts, so that only their functions bundle and load the idempotency utility.
 */
import type { Implementation } from './endpoint';
import { authentication } from './middlewares/authentication';
import { composeHttpFunction, type HttpFunction } from './pipeline';
import type { RouteDefinition } from './route';

export function httpHandler<R extends RouteDefinition & { auth: 'optional' | 'required' | 'admin' }>(
  route: R,
  implementation: Implementation<R>,
): HttpFunction {
  return composeHttpFunction(route, implementation, { authentication });
}
