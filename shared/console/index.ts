/** The review console: a page served by the API that works jobs' review queues and the mapping book through the public API. */
export { consoleRoutes } from './routes';
export { consoleAsset, consolePage, CONSOLE_FILES_DIR } from './endpoints';
