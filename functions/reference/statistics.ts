import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { referenceOf } from '../../shared/runtime/reference';
import { globalStatistics } from '../../shared/reference/search-index';

const EMPTY = { totalHotels: 0, totalCountries: 0, totalCities: 0, byCountry: [] };

export const handler = defineHandler(routes.referenceStatistics, async (_request, deps) => {
  const statistics = await referenceOf(deps).published.currentStatistics();
  return { status: 200, json: statistics ? globalStatistics(statistics) : EMPTY };
});
