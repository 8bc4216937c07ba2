import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { referenceOf } from '../../shared/runtime/reference';
import { clampCountryStatisticsLimit, topCountries } from '../../shared/reference/search-index';

export const handler = defineHandler(routes.referenceCountryList, async ({ query }, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  return { status: 200, json: statistics ? topCountries(statistics, clampCountryStatisticsLimit(query.limit)) : [] };
});
