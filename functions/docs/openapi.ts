import { docsRoutes, openApiDocument } from '../../shared/docs';
import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { componentSchemas, routes, tagDescriptions } from '../../shared/routes';
import { webhookDescriptions } from '../../shared/webhooks';

export const handler = publicHttpHandler(
  docsRoutes.openApiDocument,
  openApiDocument({ routes, webhooks: webhookDescriptions, tags: tagDescriptions, schemas: componentSchemas }),
);
