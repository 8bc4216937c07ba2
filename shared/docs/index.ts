/** The API reference, served by the API itself. */
export { docsRoutes } from './routes';
export { docsAsset, docsPage, openApiDocument, API_INFO, API_VERSION } from './endpoints';
