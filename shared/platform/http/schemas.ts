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

/** A whole number in a query string (digits only, no signs, fractions or hex), within bounds. */
export function wholeNumberParam(min: number, max: number) {
  return v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be between ${min} and ${max}`),
    v.maxValue(max, `must be between ${min} and ${max}`),
  );
}

/** `limit` and `cursor` of a paginated list. */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    limit: v.optional(v.pipe(wholeNumberParam(1, maxLimit), v.description(`Items per page, 1..${maxLimit}; default ${defaultLimit}`))),
    cursor: v.optional(
      v.pipe(v.string(), v.maxLength(4096, 'is not a cursor this API returned'), v.description('The nextCursor of the previous page')),
    ),
  };
}

export const NextCursor = v.pipe(v.nullable(v.string()), v.description('Pass as cursor to get the next page; null on the last page'));
