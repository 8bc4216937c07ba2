import { mappingExportQueue, prepareMappingExport } from '../../shared/mapping-jobs';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(mappingExportQueue, prepareMappingExport);
