/**
 * Decodes the body the route declares (JSON, form, multipart, or the raw text for signature
 * checks) and validates it against the route's schema. The official middy body parsers answer 415
 * and 422 with their own messages; the contract wants 400 `{error, message}` naming the field.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { invalidInput } from '../../errors';
import type { Headers } from '../endpoint';
import { HttpError } from '../errors';
import { parseMultipart } from '../multipart';
import { DEFAULT_MAX_BODY_BYTES, type RequestBody, type RouteDefinition } from '../route';
import { validate } from '../validation';
import type { HttpMiddleware } from './state';

export function bodyDecoding(route: RouteDefinition): HttpMiddleware {
  const declared = route.body;
  return {
    before: async ({ event, context }) => {
      if (declared) context.http.body = await decodeBody(declared, event, context.http.headers);
    },
  };
}

async function decodeBody(body: RequestBody, event: APIGatewayProxyEvent, headers: Headers): Promise<unknown> {
  const raw = event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  if (body.kind === 'multipart') {
    if (!contentType.startsWith('multipart/form-data')) {
      throw new HttpError(415, 'Content-Type must be multipart/form-data.');
    }
    const { fields, file } = await parseMultipart(raw, headers['content-type']!, body.file);
    const parsedFields = validate(body.schema, fields, 'form data') as Record<string, unknown>;
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
    if (body.kind === 'raw') return raw.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalidInput('The request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidInput('The request body must be a JSON object.');
    }
    return validate(body.schema, parsed, 'body');
  }
  if (!contentType.startsWith('application/x-www-form-urlencoded')) {
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded.');
  }
  return validate(body.schema, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))), 'body');
}
