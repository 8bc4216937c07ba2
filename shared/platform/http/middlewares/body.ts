/**
 * Decodes the body the route declares (JSON, form, multipart, or the raw text for signature
 * checks) and validates it against the route's schema. The official middy body parsers answer 415
 * and 422 with their own messages; the contract wants 400 `{error, message}` naming the field.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as v from 'valibot';
import { invalidInput } from '../../errors';
import type { Headers } from '../endpoint';
import { HttpError } from '../errors';
import { FORM_DATA, parseMultipart } from '../multipart';
import { DEFAULT_MAX_BODY_BYTES, type RequestBody, type RouteDefinition } from '../route';
import { Text } from '../schemas';
import { firstStructureProblem } from '../json-structure';
import { checkWording, repeatedFieldMessage, validate } from '../validation';
import type { HttpMiddleware } from './state';

/** Deeper than any request of the API nests (an export format's fields are four levels): no reader after the parser need recurse further. */
export const MAX_BODY_DEPTH = 32;

/** A long dot path's first members, enough to find it. */
const shortPath = (path: string) => {
  const members = path.split('.');
  return members.length > 6 ? `${members.slice(0, 6).join('.')}…` : path;
};

export function bodyDecoding(route: RouteDefinition): HttpMiddleware {
  const declared = route.body;
  return {
    before: async ({ event, context }) => {
      if (declared) context.http.body = await decodeBody(declared, event, context.http.headers);
      else refuseBody(event);
    },
  };
}

/**
 * A route that takes no body refuses one rather than ignore it (the caller meant something by
 * it). An empty JSON object is let through: many clients send `{}` with every POST.
 */
function refuseBody(event: APIGatewayProxyEvent): void {
  if (event.body == null || event.body === '') return;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (/^\s*(\{\s*\})?\s*$/.test(text)) return;
  throw invalidInput('This operation takes no request body; send it without one.');
}

/** An uploaded file's name is stored text too (the supplier request and the inventory keep it). */
const UploadedFileName = Text({ maxLength: 255, minLength: 0, trim: false });

async function decodeBody(body: RequestBody, event: APIGatewayProxyEvent, headers: Headers): Promise<unknown> {
  const raw = event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  // A compressed body would read as bytes that are not its content type's: said for what it is.
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && raw.length > 0)
    throw new HttpError(415, `Content-Encoding ${encoding} is not taken: send the body uncompressed.`);
  if (body.kind === 'multipart') {
    if (!contentType.startsWith('multipart/form-data')) {
      throw new HttpError(415, 'Content-Type must be multipart/form-data.');
    }
    const { fields, file } = await parseMultipart(raw, headers['content-type']!, body.file);
    const parsedFields = validate(body.schema, fields, FORM_DATA) as Record<string, unknown>;
    const fileName = v.safeParse(UploadedFileName, file.fileName, { message: checkWording });
    if (!fileName.success) throw invalidInput(`${body.file.field}: its name ${fileName.issues[0].message}.`);
    return { ...parsedFields, file };
  }
  const maxBytes = body.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (raw.length > maxBytes) throw new HttpError(413, `The request body exceeds ${maxBytes} bytes.`);
  if (raw.length === 0) {
    throw invalidInput(body.kind === 'form' ? 'A form-encoded request body is required.' : 'A JSON request body is required.');
  }
  if (body.kind === 'json' || body.kind === 'raw') {
    if (!/^application\/([\w.+-]+\+)?json\b/.test(contentType)) {
      throw new HttpError(415, 'Content-Type must be application/json.');
    }
    // Raw bodies are for signatures over the exact bytes: checked by the signature, not here.
    if (body.kind === 'raw') return raw.toString('utf8');
    const text = utf8Text(raw);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalidInput('The request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidInput('The request body must be a JSON object.');
    }
    const problem = firstStructureProblem(text, MAX_BODY_DEPTH);
    if (problem?.kind === 'repeated') throw invalidInput(repeatedFieldMessage(problem.path, 'body'));
    if (problem?.kind === 'too_deep')
      throw invalidInput(`The request body nests objects and arrays more than ${MAX_BODY_DEPTH} deep (at ${shortPath(problem.path)}).`);
    return validate(body.schema, parsed, 'body');
  }
  if (!contentType.startsWith('application/x-www-form-urlencoded')) {
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded.');
  }
  return validate(body.schema, formFields(utf8Text(raw)), 'body');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, refusing bytes that are not UTF-8 rather than guessing at them. A base64 body
 * is decoded strictly; a text body reaches the function already decoded by API Gateway (or the
 * local runtime), with U+FFFD in place of each such byte, so there U+FFFD is what gives them away.
 */
function utf8Text(raw: Buffer): string {
  let text: string | undefined;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    // refused just below
  }
  if (text === undefined || text.includes('\uFFFD')) throw invalidInput('The request body is not valid UTF-8.');
  return text;
}

/**
 * application/x-www-form-urlencoded fields. Unlike URLSearchParams, which keeps a malformed escape
 * as it is and turns an escaped byte that is not UTF-8 into U+FFFD, both are refused; so is a field
 * sent twice, which URLSearchParams would keep both of and a record only the last.
 */
function formFields(text: string): Record<string, string> {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw invalidInput('The form body is not valid percent-encoded UTF-8.');
    }
  };
  // No prototype: a field named __proto__ is just a field.
  const fields = Object.create(null) as Record<string, string>;
  for (const pair of text.split('&').filter(Boolean)) {
    const equals = pair.indexOf('=');
    const name = decode(equals < 0 ? pair : pair.slice(0, equals));
    if (Object.hasOwn(fields, name)) throw invalidInput(repeatedFieldMessage(name, 'body'));
    fields[name] = equals < 0 ? '' : decode(pair.slice(equals + 1));
  }
  return fields;
}
