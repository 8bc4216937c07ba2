import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { docsAsset, docsRoutes } from '../../shared/docs';

export const handler = publicHttpHandler(docsRoutes.docsAsset, docsAsset);
