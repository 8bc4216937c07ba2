/**
 * Refuses a query parameter, or a header the API reads as one value, sent more than once: which
 * one counts would be a guess (API Gateway hands the last one over as the value). The REST event
 * carries every value sent in its multi-value fields.
 */
import { invalidInput } from '../../errors';
import { refusesUnknownQuery, type RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

/** Lower-case name (as the header normalizer leaves it) -> the name messages use. */
const SINGLE_VALUED_HEADERS: Readonly<Record<string, string>> = {
  authorization: 'Authorization',
  'x-api-key': 'X-API-Key',
  'content-type': 'Content-Type',
  'idempotency-key': 'Idempotency-Key',
};

export function singleValues(route: RouteDefinition): HttpMiddleware {
  // The reference page takes whatever query a link adds (route.ts).
  const checksQuery = refusesUnknownQuery(route);
  return {
    before: ({ event }) => {
      for (const [name, label] of Object.entries(SINGLE_VALUED_HEADERS)) {
        if ((event.multiValueHeaders?.[name]?.length ?? 0) > 1)
          throw invalidInput(`The ${label} header is sent more than once: send it once.`);
      }
      if (!checksQuery) return;
      for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
        if ((values?.length ?? 0) > 1)
          throw invalidInput(`The query parameter "${name.replaceAll('\uFFFD', '?')}" is sent more than once: send it once.`);
      }
    },
  };
}
