import { exportMappingBook, mappingBookRoutes } from '../../shared/mapping-book';
import { httpHandler } from '../../shared/api-keys';

export const handler = httpHandler(mappingBookRoutes.exportMappingBook, exportMappingBook);
