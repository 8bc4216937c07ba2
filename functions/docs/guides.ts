import { docsRoutes, guidesIndex } from '../../shared/docs';
import { publicHttpHandler } from '../../shared/platform/http/public-handler';

export const handler = publicHttpHandler(docsRoutes.guidesIndex, guidesIndex);
