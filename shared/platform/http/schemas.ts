/**
 * Schema pieces every capability's request and response schemas use. Requests are validated with
 * valibot schemas and the OpenAPI document is generated from the same ones, so what is documented
 * is what is enforced.
 */
import * as v from 'valibot';
import { LONE_SURROGATE } from '../text';

/** A UUID in either case, lower-cased: ids are stored lower-case, so every route finds them alike. */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'), v.toLowerCase());
export const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 timestamp'));

export const ErrorResponse = v.object({
  error: v.pipe(v.string(), v.description('HTTP status name, e.g. "Bad Request"')),
  message: v.pipe(v.string(), v.description('What went wrong, readable by a person')),
});

// The characters no stored text holds (UNSAFE_TEXT_CHARACTER: C0 controls, DEL, C1 controls,
// bidirectional overrides), and line breaks too: they forge log lines and CSV rows. Tab is the one
// a field may allow (a CSV delimiter). Written out, not built, so the OpenAPI pattern shows them.
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$/;
const NO_CONTROL_CHARACTERS_BUT_TAB = /^[^\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$/;

export interface TextRules {
  /** At most this many characters. */
  maxLength: number;
  /** Default 1 (empty text is refused); 0 where empty means "none". */
  minLength?: number;
  /** Tab is the only control character a field may allow. Default false. */
  allowTab?: boolean;
  /** Drop leading and trailing whitespace before the checks. Default true; false for ids compared as sent. */
  trim?: boolean;
}

/**
 * Free text a caller sends (stored, echoed or searched for): the one rule for every such field of
 * every capability. No control characters (tab only with `allowTab`) or bidirectional overrides, no lone
 * surrogates, within its lengths. Bytes that are not UTF-8 never get this far: the body decoder
 * refuses them (middlewares/body.ts).
 */
export function Text({ maxLength, minLength = 1, allowTab = false, trim = true }: TextRules) {
  const exactly = minLength === maxLength ? `must be exactly ${maxLength === 1 ? 'one character' : `${maxLength} characters`}` : undefined;
  const checks = [
    v.minLength<string, number, string>(
      minLength,
      exactly ?? (minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`),
    ),
    v.maxLength<string, number, string>(maxLength, exactly ?? `must be at most ${maxLength} characters`),
    v.regex<string, string>(
      allowTab ? NO_CONTROL_CHARACTERS_BUT_TAB : NO_CONTROL_CHARACTERS,
      allowTab
        ? 'must not contain control characters other than tab, or bidirectional overrides'
        : 'must not contain control characters or bidirectional overrides',
    ),
    v.check((text: string) => !LONE_SURROGATE.test(text), 'must be valid Unicode text (it holds half of a surrogate pair)'),
  ] as const;
  // v.trim, not a transform: the OpenAPI document then still shows the lengths and the pattern.
  return trim ? v.pipe(v.string(), v.trim(), ...checks) : v.pipe(v.string(), ...checks);
}

/**
 * How a query parameter is documented when the text it arrives as stands for another type: the
 * OpenAPI document shows `integer`, `number` or `boolean` with the bounds the schema's checks set
 * (openapi.ts), so generated clients take numbers, while the server still parses the text strictly.
 */
export interface ParameterDocumentation {
  type: 'integer' | 'number' | 'boolean';
  minimum?: number;
  maximum?: number;
  default?: number | boolean;
}

export function documentedAs<TInput = string>(documentation: ParameterDocumentation) {
  return v.metadata<TInput, { parameter: ParameterDocumentation }>({ parameter: documentation });
}

/**
 * The JSON Schema a schema is documented with when its checks have none (a custom check first in
 * its pipe): the generator takes it as it is (openapi.ts).
 */
export function documentedWithJsonSchema<TInput>(jsonSchema: Record<string, unknown>) {
  return v.metadata<TInput, { jsonSchema: Record<string, unknown> }>({ jsonSchema });
}

/** No upper bound for wholeNumberParam beyond what a number holds exactly. */
export const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * An integer in a query string: the one form every integer parameter takes, digits with an
 * optional minus sign (no fractions, exponents, hex, plus signs or spaces). Outside [min, max] it
 * is refused, or, with `outOfRange: 'clamp'`, brought to the nearer bound where the contract says
 * clamp (reference search limit). A clamped one has no bound checks: the document states the
 * bounds a parameter's checks set, and a client must be free to send any whole number.
 */
export function wholeNumberParam(min: number, max: number, outOfRange: 'refuse' | 'clamp' = 'refuse') {
  if (outOfRange === 'clamp') return clampedWholeNumberParam(min, max);
  const between = `must be between ${min} and ${max}`;
  const atLeast = min === 0 ? 'must be zero or greater' : `must be ${min} or greater`;
  return v.pipe(
    v.string(),
    documentedAs({ type: 'integer' }),
    v.regex(/^-?\d+$/, 'must be a whole number'),
    v.transform((text) => Number(text) + 0), // + 0 turns "-0" into 0
    v.minValue(min, max === UNBOUNDED ? atLeast : between),
    v.maxValue(max, max === UNBOUNDED ? `must be at most ${max}` : between),
  );
}

function clampedWholeNumberParam(min: number, max: number) {
  return v.pipe(
    v.string(),
    documentedAs({ type: 'integer' }),
    v.regex(/^-?\d+$/, 'must be a whole number'),
    v.transform((text) => Math.min(max, Math.max(min, Number(text) + 0))),
  );
}

/**
 * A decimal number in a query string: digits with an optional minus sign and decimal point (no
 * exponents, hex, plus signs or spaces), as wholeNumberParam for fractions.
 */
export const decimalParam = v.pipe(
  v.string(),
  documentedAs({ type: 'number' }),
  v.regex(/^-?(\d+(\.\d+)?|\.\d+)$/, 'must be a decimal number'),
  v.transform((text) => Number(text) + 0),
);

/** `true` or `false` in a query string. */
export const booleanParam = v.pipe(
  v.picklist(['true', 'false'], 'must be true or false'),
  documentedAs<'true' | 'false'>({ type: 'boolean' }),
  v.transform((text) => text === 'true'),
);

/** `limit` and `cursor` of a paginated list. */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    limit: v.optional(
      v.pipe(
        wholeNumberParam(1, maxLimit),
        v.description(`Items per page, 1..${maxLimit}; default ${defaultLimit}`),
        documentedAs<number>({ type: 'integer', default: defaultLimit }),
        v.examples([Math.min(defaultLimit, 10)]),
      ),
    ),
    cursor: v.optional(
      // No example: only a cursor this API returned is taken, and "Try it out" would send any example it showed.
      v.pipe(
        v.string(),
        v.maxLength(4096, 'is not a cursor this API returned'),
        v.description('The nextCursor of the previous page; leave out for the first page'),
      ),
    ),
  };
}

export const NextCursor = v.pipe(v.nullable(v.string()), v.description('Pass as cursor to get the next page; null on the last page'));
