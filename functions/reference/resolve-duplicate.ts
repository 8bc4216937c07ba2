import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { duplicateReportView, resolveDuplicate } from '../../shared/reference/duplicates';
import { referencePorts } from '../../shared/runtime/dependencies';

export const handler = defineHandler(routes.resolveDuplicateReport, async ({ principal, params, body }, deps) => {
  const report = await resolveDuplicate(referencePorts(deps), {
    reportId: params.reportId.toLowerCase(),
    decision: body.decision,
    note: body.note,
    resolvedBy: principal.keyId,
  });
  return { status: 200, json: duplicateReportView(report) };
});
