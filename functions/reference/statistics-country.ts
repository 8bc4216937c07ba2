import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';
import { countryStatistics } from '../../shared/reference/search/search-index';

export const handler = defineHandler(routes.referenceCountry, async ({ params }, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  const detail = statistics && countryStatistics(statistics, params.country);
  if (!detail) throw notFound(`The inventory has no country named "${params.country}" (names are case-sensitive).`);
  return { status: 200, json: detail };
});
