import { idempotentHttpHandler } from '../../shared/api-keys';
import { reviewMappingResults, mappingJobRoutes } from '../../shared/mapping-jobs';

export const handler = idempotentHttpHandler(mappingJobRoutes.reviewMappingResults, reviewMappingResults);
