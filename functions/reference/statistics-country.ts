import { routes } from '../../shared/api/routes';
import { notFound } from '../../shared/domain/errors';
import { defineHandler } from '../../shared/http/handler';
import { referenceOf } from '../../shared/runtime/reference';
import { countryStatistics } from '../../shared/reference/search-index';

export const handler = defineHandler(routes.referenceCountry, async ({ params }, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  const detail = statistics && countryStatistics(statistics, params.country);
  if (!detail) throw notFound(`The inventory has no country named "${params.country}" (names are case-sensitive).`);
  return { status: 200, json: detail };
});
