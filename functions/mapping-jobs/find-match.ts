import { findMatch, mappingJobRoutes } from '../../shared/mapping-jobs';
import { idempotentHttpHandler } from '../../shared/api-keys';

export const handler = idempotentHttpHandler(mappingJobRoutes.findMatch, findMatch);
