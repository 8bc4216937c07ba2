import { leaseMappingResults, mappingJobRoutes } from '../../shared/mapping-jobs';
import { httpHandler } from '../../shared/api-keys';

export const handler = httpHandler(mappingJobRoutes.leaseMappingResults, leaseMappingResults);
