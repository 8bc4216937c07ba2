import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';
import { clampCountryStatisticsLimit, topCountries } from '../../shared/reference/search/search-index';

export const handler = defineHandler(routes.referenceCountryList, async ({ query }, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  return { status: 200, json: statistics ? topCountries(statistics, clampCountryStatisticsLimit(query.limit)) : [] };
});
