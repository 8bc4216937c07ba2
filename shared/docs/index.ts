/** The API reference and the guides, served by the API itself. */
export { docsRoutes } from './routes';
export {
  docsAsset,
  docsPage,
  openApiDocument,
  referenceDocument,
  API_INFO,
  API_VERSION,
  DOCS_FILES_DIR,
  type ApiReference,
} from './endpoints';
export { guidePage, guidesIndex, GUIDES_DIR } from './guide-pages';
export { GUIDE_NAMES, isGuideName, type GuideName } from './site';
