import { exportMappingResults, mappingJobRoutes } from '../../shared/mapping-jobs';
import { httpHandler } from '../../shared/platform/http/handler';

export const handler = httpHandler(mappingJobRoutes.exportMappingResults, exportMappingResults);
