/**
 * Verifies the caller's credential as the route asks: `required` and `admin` answer 401 without a
 * valid one (`admin` also 403 unless it is an admin key); `optional` reads a valid credential and
 * ignores an invalid one. Routes with `auth: 'none'` never get this middleware. The authenticator
 * is the credential owner's (shared/api-keys/handlers.ts).
 */
import { hasCredential, type AuthenticatorOf } from '../../auth/principal';
import { DomainError, forbidden } from '../../errors';
import type { Runtime } from '../../runtime';
import type { RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

export const authentication = (authenticatorOf: AuthenticatorOf) => (route: RouteDefinition, runtime: () => Runtime): HttpMiddleware => ({
    before: async ({ context }) => {
      const { headers } = context.http;
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
      context.http.principal = principal;
    },
});
