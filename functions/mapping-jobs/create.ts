import { createMappingJob, mappingJobRoutes } from '../../shared/mapping-jobs';
import { idempotentHttpHandler } from '../../shared/platform/http/idempotent-handler';

export const handler = idempotentHttpHandler(mappingJobRoutes.createMappingJob, createMappingJob);
