/**
 * The middy pipeline every HTTP function runs: official middlewares normalise the API Gateway
 * event, ours log the request, shape every failure as `{error, message}`, refuse a query parameter
 * or single-valued header sent twice, authenticate (when the handler builder adds it), validate
 * the path and query, and decode and validate the body. The endpoint's implementation then gets a
 * typed request and the runtime (once per Idempotency-Key on the routes that create or charge:
 * idempotency.ts).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddyfiedHandler } from '@middy/core';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { REQUEST_ID_FORMAT, REQUEST_ID_HEADER, withCorrelationId } from '../correlation';
import { logger } from '../logging';
import { annotate, captureLambdaHandler, tracer } from '../tracing';
import { environmentRuntime, type Runtime } from '../runtime';
import type { HttpRequest, HttpResult, Implementation } from './endpoint';
import type { answerIdempotently } from './idempotency';
import { bodyDecoding } from './middlewares/body';
import { deprecation } from './middlewares/deprecation';
import { errorModel } from './middlewares/error-model';
import { requestLog } from './middlewares/request-log';
import { pathAndQuery } from './middlewares/path-and-query';
import { singleValues } from './middlewares/single-values';
import type { HttpContext, HttpMiddleware } from './middlewares/state';
import type { RouteDefinition } from './route';

export type LambdaHandler = (event: APIGatewayProxyEvent, context?: Partial<Context>) => Promise<APIGatewayProxyResult>;

export interface HttpFunction extends LambdaHandler {
  /** The route this function answers. */
  route: RouteDefinition;
  /** The same handler over another runtime (the local runtime, tests). */
  withRuntime(runtime: Runtime): LambdaHandler;
}

/** Builds the function's handler; authentication and idempotency come from the builders of credentialed routes (shared/api-keys/handlers.ts). */
export function composeHttpFunction<R extends RouteDefinition>(
  route: R,
  implementation: Implementation<R>,
  credentialed?: {
    authentication: (route: RouteDefinition, runtime: () => Runtime) => HttpMiddleware;
    /** For the idempotent routes only: no other function bundles it. */
    idempotency?: typeof answerIdempotently;
  },
): HttpFunction {
  // Checked as the function file loads (every test and `npm run synth` load them): never silently without it.
  if (route.idempotent && !credentialed?.idempotency)
    throw new Error(`${route.handler}: an idempotent route is built with idempotentHttpHandler.`);
  const build = (runtime: () => Runtime): LambdaHandler => {
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>();
    handler.use(injectLambdaContext(logger));
    handler.use(captureLambdaHandler(tracer, { captureResponse: false }));
    handler.use(httpHeaderNormalizer());
    handler.use(httpEventNormalizer());
    handler.use(requestLog(route));
    if (route.deprecated) handler.use(deprecation(route.deprecated));
    handler.use(errorModel(route));
    handler.use(singleValues(route));
    if (credentialed) handler.use(credentialed.authentication(route, runtime));
    handler.use(pathAndQuery(route));
    handler.use(bodyDecoding(route));
    handler.handler(async (_event, context) => {
      const request = context.http as HttpRequest<R>;
      annotate({
        route: `${route.method} ${route.path}`,
        organizationId: request.principal?.organizationId,
        jobId: (request.params as { jobId?: string }).jobId,
      });
      const answer = async () => toResponse(await implementation(request, runtime()));
      return credentialed?.idempotency ? credentialed.idempotency(route, runtime(), request, context, answer) : answer();
    });
    return invoke(handler);
  };
  const lambda = build(environmentRuntime) as HttpFunction;
  lambda.route = route;
  lambda.withRuntime = (runtime) => build(() => runtime);
  return lambda;
}

/**
 * Lambda gives a full context; the local runtime and tests give what they have. The request runs
 * under its correlation id (correlation.ts): the partner's X-Request-Id when it has the form one
 * takes (request-log.ts refuses one that has not), else the gateway's request id.
 */
function invoke(handler: MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>): LambdaHandler {
  return (event, context = {}) => withCorrelationId(correlationIdOf(event, context), () => handler(event, context as HttpContext));
}

function correlationIdOf(event: APIGatewayProxyEvent, context: Partial<Context>): string {
  const sent = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === REQUEST_ID_HEADER)?.[1];
  if (sent !== undefined && REQUEST_ID_FORMAT.test(sent)) return sent;
  return event.requestContext?.requestId ?? context.awsRequestId ?? 'local';
}

function toResponse(result: HttpResult): APIGatewayProxyResult {
  if (result.text !== undefined) {
    return {
      statusCode: result.status,
      headers: { 'content-type': result.contentType ?? 'text/plain; charset=utf-8', ...result.headers },
      body: result.text,
    };
  }
  if (result.json === undefined) return { statusCode: result.status, headers: { ...result.headers }, body: '' };
  return {
    statusCode: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...result.headers },
    body: JSON.stringify(result.json),
  };
}
