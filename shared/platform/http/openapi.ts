/**
 * Generates the OpenAPI 3.1 document from the route table and its valibot schemas.
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import { documentedResponses } from './responses';
import { IDEMPOTENCY_KEY_HOURS, refusesUnknownQuery, type AnySchema, type RouteDefinition } from './route';

type JsonSchema = Record<string, unknown>;

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key: `hmk_<keyId>_<secret>`' },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A token from POST /api/v1/auth/token, valid one hour',
  },
} as const;

/** The document's `info`: what the API is called and says of itself. */
export interface ApiInfo {
  title: string;
  version: string;
  description: string;
  contact: { name: string };
  license: { name: string; identifier: string };
}

/** A request the service sends (OpenAPI 3.1 `webhooks`): what receivers get. */
export interface WebhookDescription {
  summary: string;
  description: string;
  headers: readonly { name: string; description: string }[];
  body: AnySchema;
}

export function buildOpenApiDocument(
  routes: Readonly<Record<string, RouteDefinition>>,
  options: {
    serverUrl: string;
    info: ApiInfo;
    webhooks?: Readonly<Record<string, WebhookDescription>>;
    /** Every tag's description, in the order the reference lists them. */
    tags?: Readonly<Record<string, string>>;
    /** The shapes written once, in components.schemas, and referenced wherever they appear. */
    schemas?: Readonly<Record<string, AnySchema>>;
  },
): Record<string, unknown> {
  const definitions = options.schemas ?? {};
  const convert = converter(definitions);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, route] of Object.entries(routes)) {
    if (route.internal) continue;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(convert, operationId, route);
  }
  return {
    openapi: '3.1.0',
    info: options.info,
    servers: [{ url: options.serverUrl }],
    ...(options.tags && { tags: Object.entries(options.tags).map(([name, description]) => ({ name, description })) }),
    paths,
    ...(options.webhooks && {
      webhooks: Object.fromEntries(
        Object.entries(options.webhooks).map(([name, webhook]) => [name, { post: webhookOperation(convert, name, webhook) }]),
      ),
    }),
    components: { schemas: componentSchemas(definitions), securitySchemes: SECURITY_SCHEMES },
  };
}

function webhookOperation(convert: Convert, name: string, webhook: WebhookDescription): Record<string, unknown> {
  return {
    // URL-safe: MAPPING_COMPLETED -> webhook-MAPPING_COMPLETED; any other character than A-Z a-z 0-9 . _ ~ - becomes -.
    operationId: `webhook-${name.replace(/[^A-Za-z0-9._~-]/g, '-')}`,
    summary: webhook.summary,
    description: webhook.description,
    tags: ['Webhook events'],
    parameters: webhook.headers.map((header) => ({
      name: header.name,
      in: 'header',
      required: true,
      description: header.description,
      schema: { type: 'string' },
    })),
    requestBody: { required: true, content: { 'application/json': { schema: convert(webhook.body, 'output') } } },
    // The service calls the receiver: no credential of ours; the request is signed (the description says how to check it).
    security: [],
    responses: { '2XX': { description: 'Received: any 2xx answer within 10 s' } },
  };
}

function operation(convert: Convert, operationId: string, route: RouteDefinition): Record<string, unknown> {
  return {
    operationId,
    summary: route.summary,
    ...(route.description && { description: route.description }),
    tags: [route.tag],
    ...(route.deprecated && { deprecated: true }),
    security: security(route),
    parameters: [
      ...parameters(convert, route.params, 'path'),
      ...parameters(convert, route.query, 'query'),
      ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
      ...(refusesUnknownQuery(route) ? [REQUEST_ID_PARAMETER] : []),
    ],
    ...(route.body && { requestBody: requestBody(convert, route.body) }),
    responses: Object.fromEntries(
      Object.entries(documentedResponses(route)).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema && { content: { 'application/json': { schema: convert(response.schema, 'output') } } }),
          ...(response.contentType && { content: { [response.contentType]: {} } }),
          ...(response.headers && {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
            ),
          }),
        },
      ]),
    ),
  };
}

function security(route: RouteDefinition): Record<string, string[]>[] {
  const either: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
  if (route.auth === 'none') return [];
  return route.auth === 'optional' ? [{}, ...either] : either;
}

const REQUEST_ID_PARAMETER = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    "Your id for this request, answered back as X-Request-Id and written on every log line of the work it causes (its job's chunks, its webhook deliveries): " +
    "quote it to support. Without one, the API's own request id is answered. 1 to 128 visible ASCII characters.",
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$' },
  example: 'partner-trace-0042',
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Makes a retry safe: a request repeated with the same key and the same parameters and body within ${IDEMPOTENCY_KEY_HOURS} hours ` +
    'answers the first answer again (with the header Idempotent-Replayed: true) and creates or charges nothing twice. ' +
    'The same key with another request answers 422; while the first request is still running, 409. A request that failed is not kept. ' +
    'Keys are per organization and operation; a UUID per logical request will do.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: '0f8fad5b-d9cb-469f-a165-70867728950e',
};

function parameters(convert: Convert, schema: AnySchema | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const json = convert(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const entries = (schema as { entries?: Record<string, ValibotNode> }).entries ?? {};
  return Object.entries(properties).map(([name, property]) => {
    const documented = entries[name] ? parameterDocumentation(entries[name]) : {};
    const { description, examples, ...rest } = property;
    const example = documented.example ?? (Array.isArray(examples) ? (examples[0] as unknown) : undefined);
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...((documented.description ?? description) !== undefined && { description: documented.description ?? description }),
      ...(example !== undefined && { example }),
      schema: documented.schema ?? rest,
    };
  });
}

interface ValibotNode {
  type: string;
  kind?: string;
  wrapped?: ValibotNode;
  pipe?: ValibotNode[];
  requirement?: unknown;
  metadata?: Record<string, unknown>;
  description?: string;
  examples?: readonly unknown[];
}

/**
 * What a parameter's schema says of it anywhere in its pipes, outer pipes last, so they win: its
 * description and first example, and, for a parameter that arrives as text but stands for a number
 * or a boolean (documentedAs in schemas.ts), its documented type with the bounds of its min_value,
 * max_value and gt_value checks and its default. The JSON Schema converter stops at a pipe's first
 * transformation when it reads a request; this reads past it.
 */
function parameterDocumentation(node: ValibotNode): { schema?: JsonSchema; description?: string; example?: unknown } {
  const schema: Record<string, unknown> = {};
  let description: string | undefined;
  let example: unknown;
  const visit = (item: ValibotNode) => {
    if (item.wrapped) visit(item.wrapped);
    for (const step of item.pipe ?? []) {
      if (step === item) continue;
      if (step.kind === 'schema') visit(step);
      else if (step.type === 'metadata' && step.metadata?.parameter) Object.assign(schema, step.metadata.parameter);
      else if (step.type === 'description') description = step.description;
      else if (step.type === 'examples') example = step.examples?.[0];
      else if (step.type === 'min_value') schema.minimum = step.requirement;
      else if (step.type === 'max_value') schema.maximum = step.requirement;
      else if (step.type === 'gt_value') schema.exclusiveMinimum = step.requirement;
    }
  };
  visit(node);
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  return { ...(schema.type !== undefined && { schema }), description, example };
}

function requestBody(convert: Convert, body: NonNullable<RouteDefinition['body']>) {
  if (body.kind === 'multipart') {
    const fields = convert(body.schema, 'input');
    // Each text field shows its example (Swagger UI fills a form's inputs from its properties); a
    // media-type example would need the file part too.
    const properties = Object.fromEntries(
      Object.entries(fields.properties as Record<string, JsonSchema>).map(([name, property]) => [
        name,
        body.example[name] === undefined ? property : { ...property, examples: [body.example[name]] },
      ]),
    );
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            ...fields,
            properties: {
              ...properties,
              // `format: binary` is what generators and Swagger UI read as a file (a Blob, a file picker); contentMediaType is OpenAPI 3.1's word for it.
              [body.file.field]: {
                type: 'string',
                format: 'binary',
                contentMediaType: 'application/octet-stream',
                description: `${body.file.description}; at most ${body.file.maxBytes} bytes`,
              },
            },
            required: [...((fields.required as string[]) ?? []), body.file.field],
          },
        },
      },
    };
  }
  if (body.kind === 'raw') return { required: true, description: body.description, content: { [body.contentType]: {} } };
  const mediaType = body.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return { required: true, content: { [mediaType]: { schema: convert(body.schema, 'input'), example: body.example } } };
}

/** A valibot schema as JSON Schema, in the document: its named shapes as references to components.schemas. */
type Convert = (schema: AnySchema, typeMode: 'input' | 'output') => JsonSchema;

const COMPONENTS = '#/components/schemas/';

function converter(definitions: Readonly<Record<string, AnySchema>>): Convert {
  return (schema, typeMode) => {
    // Transformations and custom checks have no JSON Schema form; the validators still enforce them.
    const {
      $schema: _dialect,
      $defs: _definitions,
      ...json
    } = toJsonSchema(schema, {
      target: 'draft-2020-12',
      typeMode,
      errorMode: 'ignore',
      definitions: definitions,
    }) as JsonSchema;
    return inDocument(json) as JsonSchema;
  };
}

/** The named shapes themselves, as components.schemas holds them. */
function componentSchemas(definitions: Readonly<Record<string, AnySchema>>): Record<string, JsonSchema> {
  const converted = toJsonSchemaDefs(definitions as Record<string, AnySchema>, {
    target: 'draft-2020-12',
    typeMode: 'output',
    errorMode: 'ignore',
  });
  return Object.fromEntries(Object.entries(converted).map(([name, json]) => [name, inDocument(json) as JsonSchema]));
}

/**
 * What the converter writes, made the document's: references point into components.schemas; a
 * schema documented with its own JSON Schema (documentedWithJsonSchema) becomes that schema; a
 * parameter's documentation (documentedAs) is read by `parameters` and dropped here.
 */
function inDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inDocument);
  if (!node || typeof node !== 'object') return node;
  const { jsonSchema, parameter: _parameter, ...rest } = node as Record<string, unknown>;
  if (jsonSchema) return jsonSchema;
  if (typeof rest.$ref === 'string') return { ...rest, $ref: rest.$ref.replace('#/$defs/', COMPONENTS) };
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inDocument(value)]));
}
