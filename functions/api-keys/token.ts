import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { apiKeyRoutes, issueToken } from '../../shared/api-keys';

export const handler = publicHttpHandler(apiKeyRoutes.issueToken, issueToken);
