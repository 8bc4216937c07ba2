import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { consolePage, consoleRoutes } from '../../shared/console';

export const handler = publicHttpHandler(consoleRoutes.consolePage, consolePage);
