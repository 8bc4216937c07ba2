import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';
import { duplicateReportView } from '../../shared/reference/duplicates';

export const handler = defineHandler(routes.getDuplicateReport, async ({ principal, params }, deps) => {
  const report = await referenceOf(deps).store.getReport(params.reportId.toLowerCase());
  // Another organization's report is answered exactly like a missing one.
  if (!report || (report.organizationId !== principal.organizationId && principal.role !== 'admin')) {
    throw notFound(`No duplicate report has the id ${params.reportId}.`);
  }
  return { status: 200, json: duplicateReportView(report) };
});
