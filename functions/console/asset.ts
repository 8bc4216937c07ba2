import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { consoleAsset, consoleRoutes } from '../../shared/console';

export const handler = publicHttpHandler(consoleRoutes.consoleAsset, consoleAsset);
