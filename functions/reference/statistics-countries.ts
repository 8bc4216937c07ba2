import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { clampCountryStatisticsLimit, topCountries } from '../../shared/reference/search-index';

export const handler = defineHandler(routes.referenceCountryList, async ({ query }, { publishedReference }) => {
  const statistics = await publishedReference.currentStatistics();
  return { status: 200, json: statistics ? topCountries(statistics, clampCountryStatisticsLimit(query.limit)) : [] };
});
