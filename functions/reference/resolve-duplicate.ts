import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { duplicateReportView, resolveDuplicate } from '../../shared/reference/duplicates';
import { referenceOf } from '../../shared/reference/services';

export const handler = defineHandler(routes.resolveDuplicateReport, async ({ principal, params, body }, deps) => {
  const report = await resolveDuplicate(referenceOf(deps).ports, {
    reportId: params.reportId.toLowerCase(),
    decision: body.decision,
    note: body.note,
    resolvedBy: principal.keyId,
  });
  return { status: 200, json: duplicateReportView(report) };
});
