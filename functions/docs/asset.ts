import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { docsAsset } from '../../shared/docs';

export const handler = publicHttpHandler(docsAsset);
