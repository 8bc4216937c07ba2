/**
 * Idempotent creates and charges (routes marked `idempotent`), with Powertools for AWS Lambda's
 * idempotency utility over the single table. A request with an Idempotency-Key header is recorded
 * in progress before it runs and its answer kept for 24 hours after: the same key with the same
 * request answers that answer again (header Idempotent-Replayed: true) and creates nothing; the
 * same key with another request is a 422; while the first is still running, a 409. A request that
 * fails is not kept, so it can be sent again with its key. Keys are per organization and operation.
 * The kept answers live in the single table (one partition, IDEMPOTENCY), expired by its TTL.
 */
import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { requireSetting } from '../config';
import { invalidInput } from '../errors';
import { service, type Runtime } from '../runtime';
import { secretBoxOf } from '../secrets/services';
import { dynamoDbClient, TABLE_KEYS } from '../table';
import type { HttpRequest } from './endpoint';
import { HttpError } from './errors';
import { IDEMPOTENCY_KEY_HOURS, type RouteDefinition } from './route';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Visible ASCII, as most clients generate (a UUID, a hash, an order number). */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

const persistenceOf = /* @__PURE__ */ service(
  (runtime) =>
    new DynamoDBPersistenceLayer({
      tableName: requireSetting(runtime.config, 'tableName'),
      keyAttr: TABLE_KEYS.partitionKey,
      sortKeyAttr: TABLE_KEYS.sortKey,
      staticPkValue: 'IDEMPOTENCY',
      expiryAttr: TABLE_KEYS.ttlAttribute,
      awsSdkV3Client: dynamoDbClient(runtime.config),
    }),
);

/** `answer()` once per key, organization and operation; its first result again for a repeated request. */
export async function answerIdempotently(
  route: RouteDefinition,
  runtime: Runtime,
  request: HttpRequest<RouteDefinition>,
  lambdaContext: Partial<Context>,
  answer: () => Promise<APIGatewayProxyResult>,
): Promise<APIGatewayProxyResult> {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (key === undefined) return answer();
  if (!KEY_FORMAT.test(key)) throw invalidInput('Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID will do).');
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'scope',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_KEY_HOURS * 3600,
  });
  // The in-progress record expires with the invocation, so a request that died mid-way does not hold its key.
  if (typeof lambdaContext.getRemainingTimeInMillis === 'function') config.registerLambdaContext(lambdaContext as Context);
  const scope = {
    organizationId: request.principal?.organizationId ?? null,
    operation: `${route.method} ${route.path}`,
    params: request.params,
    key,
  };
  // An answer that holds a secret (a signing secret shown once) is kept sealed, as every stored secret is.
  const box = route.idempotent === 'sealed' ? secretBoxOf(runtime) : undefined;
  const sealContext = { purpose: 'idempotent-answer', organizationId: String(scope.organizationId), key };
  let answered = false;
  const once = makeIdempotent(
    async (_identity: unknown): Promise<APIGatewayProxyResult> => {
      answered = true;
      const result = await answer();
      return box ? { ...result, body: await box.seal(result.body, sealContext) } : result;
    },
    { persistenceStore: persistenceOf(runtime), config, keyPrefix: 'api' },
  );
  let result: APIGatewayProxyResult;
  try {
    result = await once({ scope, request: { query: request.query, body: comparable(request.body) } });
    if (box) result = { ...result, body: await box.open(result.body, sealContext) };
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw new HttpError(422, 'This Idempotency-Key was used with another request; use a new key for a new request.');
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; send it again in a moment.');
    }
    throw error;
  }
  return answered ? result : { ...result, headers: { ...result.headers, [REPLAYED_HEADER]: 'true' } };
}

/**
 * Names a request as its Idempotency-Key and content do (undefined without a key): what a charge's
 * receipt is kept under, so a request sent again with its key, after its first attempt died, is
 * charged once, and another request under a reused key is not taken for it.
 */
export function requestReceipt(route: RouteDefinition, request: HttpRequest<RouteDefinition>): string | undefined {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (key === undefined) return undefined;
  const content = {
    operation: `${route.method} ${route.path}`,
    params: request.params,
    query: request.query,
    body: comparable(request.body),
    key,
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

/** The body as compared between requests: an uploaded file by its digest, not its bytes. */
function comparable(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || !('file' in body)) return body ?? null;
  const { file, ...fields } = body as { file: { fileName: string; contentType: string; data: Buffer } };
  return {
    ...fields,
    file: { fileName: file.fileName, contentType: file.contentType, sha256: createHash('sha256').update(file.data).digest('hex') },
  };
}
