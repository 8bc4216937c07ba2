import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { duplicateReportView, reportDuplicate } from '../../shared/reference/duplicates';
import { referencePorts } from '../../shared/runtime/dependencies';

export const handler = defineHandler(routes.reportDuplicate, async ({ principal, body }, deps) => {
  const report = await reportDuplicate(referencePorts(deps), {
    organizationId: principal.organizationId,
    ...body,
    originalHotelId: body.originalHotelId.toLowerCase(),
    duplicateHotelId: body.duplicateHotelId.toLowerCase(),
  });
  return { status: 200, json: duplicateReportView(report) };
});
