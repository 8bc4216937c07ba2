import { mappingBookRecordQueue, recordFoundMatches } from '../../shared/mapping-book';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(mappingBookRecordQueue, recordFoundMatches);
