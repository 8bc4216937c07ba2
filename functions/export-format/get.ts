import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getExportFormat, async ({ principal }, { exportFormats }) => {
  const config = await exportFormats.get(principal.organizationId);
  if (!config) throw notFound('No export format has been set. Set one with PUT /api/v1/export-format.');
  return { status: 200, json: config };
});
