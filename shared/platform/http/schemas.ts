/**
 * Schema pieces every capability's request and response schemas use. Requests are validated with
 * valibot schemas and the OpenAPI document is generated from the same ones, so what is documented
 * is what is enforced.
 */
import * as v from 'valibot';

export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 timestamp'));

export const ErrorResponse = v.object({
  error: v.pipe(v.string(), v.description('HTTP status name, e.g. "Bad Request"')),
  message: v.pipe(v.string(), v.description('What went wrong, readable by a person')),
});
