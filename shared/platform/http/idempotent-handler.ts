/** The handler of a function whose route creates or charges (`idempotent`): handler.ts, with Idempotency-Key (idempotency.ts). */
import type { Implementation } from './endpoint';
import { answerIdempotently } from './idempotency';
import { authentication } from './middlewares/authentication';
import { composeHttpFunction, type HttpFunction } from './pipeline';
import type { RouteDefinition } from './route';

export function idempotentHttpHandler<R extends RouteDefinition & { auth: 'optional' | 'required' | 'admin'; idempotent: true | 'sealed' }>(
  route: R,
  implementation: Implementation<R>,
): HttpFunction {
  return composeHttpFunction(route, implementation, { authentication, idempotency: answerIdempotently });
}
