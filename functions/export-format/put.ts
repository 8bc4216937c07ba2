import { httpHandler } from '../../shared/api-keys';
import { exportFormatRoutes, putExportFormat } from '../../shared/export-format';

export const handler = httpHandler(exportFormatRoutes.putExportFormat, putExportFormat);
