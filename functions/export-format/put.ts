import { httpHandler } from '../../shared/platform/http/handler';
import { putExportFormat } from '../../shared/export-format';

export const handler = httpHandler(putExportFormat);
