import { httpHandler } from '../../shared/platform/http/handler';
import { getExportFormat } from '../../shared/export-format';

export const handler = httpHandler(getExportFormat);
