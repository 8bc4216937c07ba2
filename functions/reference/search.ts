import { httpHandler } from '../../shared/platform/http/handler';
import { searchReference } from '../../shared/reference';

export const handler = httpHandler(searchReference);
