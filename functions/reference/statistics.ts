import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';
import { globalStatistics } from '../../shared/reference/search/search-index';

const EMPTY = { totalHotels: 0, totalCountries: 0, totalCities: 0, byCountry: [] };

export const handler = defineHandler(routes.referenceStatistics, async (_request, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  return { status: 200, json: statistics ? globalStatistics(statistics) : EMPTY };
});
