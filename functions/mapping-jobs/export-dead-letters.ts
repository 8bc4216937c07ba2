import { abandonMappingExport, mappingExportQueue } from '../../shared/mapping-jobs';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(mappingExportQueue, abandonMappingExport);
