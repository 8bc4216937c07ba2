import { randomUUID } from 'node:crypto';
import { routes } from '../../shared/routes';
import { resolveExportFormat } from '../../shared/export-format/export-format';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.putExportFormat, async ({ principal, body }, { exportFormats, clock }) => {
  // The configuration keeps its id across replacements: it is the organization's one configuration.
  const current = await exportFormats.get(principal.organizationId);
  const config = resolveExportFormat(body, current?.id ?? randomUUID(), clock.now());
  await exportFormats.put(principal.organizationId, config);
  return { status: 200, json: config };
});
