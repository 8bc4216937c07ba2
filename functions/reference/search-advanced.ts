import { httpHandler } from '../../shared/platform/http/handler';
import { advancedSearchReference } from '../../shared/reference';

export const handler = httpHandler(advancedSearchReference);
