import { httpHandler } from '../../shared/platform/http/handler';
import { exportFormatRoutes, getExportFormat } from '../../shared/export-format';

export const handler = httpHandler(exportFormatRoutes.getExportFormat, getExportFormat);
