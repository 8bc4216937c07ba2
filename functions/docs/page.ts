import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { docsPage } from '../../shared/docs';

export const handler = publicHttpHandler(docsPage);
