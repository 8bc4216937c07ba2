import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { referenceOf } from '../../shared/runtime/reference';
import { advancedSearch, clampSearchLimit, resolveSearchOffset } from '../../shared/reference/search-index';

export const handler = defineHandler(routes.advancedSearchReference, async ({ query }, deps) => {
  const index = await referenceOf(deps).published.searchIndex();
  if (!index) return { status: 200, json: { results: [], total: 0 } };
  const page = advancedSearch(index, { ...query, limit: clampSearchLimit(query.limit), offset: resolveSearchOffset(query.offset) });
  return { status: 200, json: page };
});
