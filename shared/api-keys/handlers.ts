/**
 * The handlers of functions whose route takes a credential: the platform's HTTP pipeline with this
 * capability's authenticator (API keys and bearer tokens). Routes without one use the platform's
 * publicHttpHandler and bundle neither the key store nor the token verifier; only routes that
 * create or charge (`idempotent`) bundle the idempotency utility.
 */
import type { Implementation } from '../platform/http/endpoint';
import { answerIdempotently } from '../platform/http/idempotency';
import { authentication } from '../platform/http/middlewares/authentication';
import { composeHttpFunction, type HttpFunction } from '../platform/http/pipeline';
import type { RouteDefinition } from '../platform/http/route';
import { authenticatorOf } from './services';

type CredentialedRoute = RouteDefinition & { auth: 'optional' | 'required' | 'admin' };

export function httpHandler<R extends CredentialedRoute>(route: R, implementation: Implementation<R>): HttpFunction {
  return composeHttpFunction(route, implementation, { authentication: authentication(authenticatorOf) });
}

/** With Idempotency-Key (shared/platform/http/idempotency.ts). */
export function idempotentHttpHandler<R extends CredentialedRoute & { idempotent: true | 'sealed' }>(
  route: R,
  implementation: Implementation<R>,
): HttpFunction {
  return composeHttpFunction(route, implementation, { authentication: authentication(authenticatorOf), idempotency: answerIdempotently });
}
