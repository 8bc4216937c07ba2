import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { duplicateReportView, reportDuplicate } from '../../shared/reference/duplicates';
import { referenceOf } from '../../shared/reference/services';

export const handler = defineHandler(routes.reportDuplicate, async ({ principal, body }, deps) => {
  const report = await reportDuplicate(referenceOf(deps).ports, {
    organizationId: principal.organizationId,
    ...body,
    originalHotelId: body.originalHotelId.toLowerCase(),
    duplicateHotelId: body.duplicateHotelId.toLowerCase(),
  });
  return { status: 200, json: duplicateReportView(report) };
});
