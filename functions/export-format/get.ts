import { httpHandler } from '../../shared/api-keys';
import { exportFormatRoutes, getExportFormat } from '../../shared/export-format';

export const handler = httpHandler(exportFormatRoutes.getExportFormat, getExportFormat);
