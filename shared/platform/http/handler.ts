/**
 * The handler of a function whose route takes a credential (`optional`, `required`, `admin`): the
 * HTTP pipeline with authentication, and idempotency for the routes that create or charge. Routes
 * without a credential use public-handler.ts, so that they bundle neither the key store, the token
 * verifier nor the idempotency utility.
 */
import type { Implementation } from './endpoint';
import { answerIdempotently } from './idempotency';
import { authentication } from './middlewares/authentication';
import { composeHttpFunction, type HttpFunction } from './pipeline';
import type { RouteDefinition } from './route';

export function httpHandler<R extends RouteDefinition & { auth: 'optional' | 'required' | 'admin' }>(
  route: R,
  implementation: Implementation<R>,
): HttpFunction {
  return composeHttpFunction(route, implementation, { authentication, idempotency: answerIdempotently });
}
