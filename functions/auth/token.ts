import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { issueToken } from '../../shared/api-keys';

export const handler = publicHttpHandler(issueToken);
