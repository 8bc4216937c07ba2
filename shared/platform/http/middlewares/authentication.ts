/**
 * Verifies the caller's credential as the route asks: `required` and `admin` answer 401 without a
 * valid one (`admin` also 403 unless it is an admin key); `optional` reads a valid credential and
 * ignores an invalid one. Both credential headers at once answer 400 on every such route. Routes
 * with `auth: 'none'` never get this middleware. The authenticator is the credential owner's
 * (shared/api-keys/handlers.ts). Each organization's requests are counted: past its share a
 * second, or its share of a throttled route (rate-limits.ts), 429 with Retry-After, whatever
 * credential it uses.
 */
import { hasCredential, type AuthenticatorOf } from '../../auth/principal';
import { DomainError, forbidden, invalidInput } from '../../errors';
import { countRequest, organizationRequestShares } from '../../rate-limits';
import type { Runtime } from '../../runtime';
import { tableOf } from '../../table';
import { HttpError } from '../errors';
import type { RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

export const authentication =
  (authenticatorOf: AuthenticatorOf) =>
  (route: RouteDefinition, runtime: () => Runtime): HttpMiddleware => ({
    before: async ({ context }) => {
      const { headers } = context.http;
      // Which of two credentials counts would be a guess; refused even where a credential is optional.
      if (headers['x-api-key'] !== undefined && headers['authorization'] !== undefined) {
        throw invalidInput('Send one credential, X-API-Key or Authorization, not both.');
      }
      const authenticator = authenticatorOf(runtime());
      const now = runtime().clock.now();
      if (route.auth === 'optional') {
        if (!hasCredential(headers)) return;
        try {
          context.http.principal = await authenticator.authenticate(headers, now);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        return;
      }
      const principal = await authenticator.authenticate(headers, now);
      if (route.auth === 'admin' && principal.role !== 'admin') {
        throw forbidden('This operation needs an admin API key.');
      }
      const shares = organizationRequestShares(route, runtime().config);
      const refusal = await countRequest(tableOf(runtime()), principal.organizationId, shares, now);
      if (refusal) {
        const past =
          refusal === 'route' && shares.route
            ? `${shares.route.perSecond} ${route.method} ${route.path} requests`
            : `${shares.perSecond} requests`;
        throw new HttpError(429, `Your organization sent more than ${past} this second, over all its credentials. Retry in a second.`, 1);
      }
      context.http.principal = principal;
    },
  });
