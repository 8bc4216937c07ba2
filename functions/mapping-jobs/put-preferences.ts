import { putMappingPreferences, mappingJobRoutes } from '../../shared/mapping-jobs';
import { httpHandler } from '../../shared/platform/http/handler';

export const handler = httpHandler(mappingJobRoutes.putMappingPreferences, putMappingPreferences);
