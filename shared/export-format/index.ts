/** Export format: how an organization wants its mapping result files written. */
export { exportFormatRoutes } from './routes';
export { getExportFormat, putExportFormat } from './endpoints';
export { exportFormatStoreOf } from './store';
export { EXPORT_FORMAT_DEFAULTS, EXPORT_FORMATS, type ExportFormatConfig } from './export-format';
export {
  columnNames,
  columnValues,
  DEFAULT_EXPORT_FORMAT,
  downloadLink,
  EXPORTS_PREFIX,
  openExportFile,
  resolveFormat,
  sameFormat,
  XLSX_MAX_ROWS,
  type ExportFileWriter,
  type ResolvedExportFormat,
} from './export-file';
export { prepareNamedExport, requestPreparedExport, type ExportHolder, type ExportRequest, type HeldExport } from './prepared-export';
