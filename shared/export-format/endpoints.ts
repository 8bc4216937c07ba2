/** The export format endpoints: the organization's one configuration for result files. */
import { randomUUID } from 'node:crypto';
import { notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { resolveExportFormat } from './export-format';
import { exportFormatRoutes } from './routes';
import { exportFormatStoreOf } from './store';

export const getExportFormat: Implementation<typeof exportFormatRoutes.getExportFormat> = async ({ principal }, runtime) => {
  const config = await exportFormatStoreOf(runtime).get(principal.organizationId);
  if (!config) throw notFound('No export format has been set. Set one with PUT /api/v1/export-format.');
  return { status: 200, json: config };
};

export const putExportFormat: Implementation<typeof exportFormatRoutes.putExportFormat> = async ({ principal, body }, runtime) => {
  const formats = exportFormatStoreOf(runtime);
  // The configuration keeps its id across replacements: it is the organization's one configuration.
  const current = await formats.get(principal.organizationId);
  const config = resolveExportFormat(body, current?.id ?? randomUUID(), runtime.clock.now());
  await formats.put(principal.organizationId, config);
  return { status: 200, json: config };
};
