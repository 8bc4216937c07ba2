import { queueWorker } from '../../shared/platform/queue/worker';
import { referencePublicationQueue, republishAfterMerge } from '../../shared/reference';

export const handler = queueWorker(referencePublicationQueue, republishAfterMerge);
