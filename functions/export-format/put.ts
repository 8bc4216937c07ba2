import { httpHandler } from '../../shared/platform/http/handler';
import { exportFormatRoutes, putExportFormat } from '../../shared/export-format';

export const handler = httpHandler(exportFormatRoutes.putExportFormat, putExportFormat);
