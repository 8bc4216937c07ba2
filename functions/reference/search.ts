import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';
import { clampSearchLimit, resolveSearchOffset, search } from '../../shared/reference/search/search-index';

export const handler = defineHandler(routes.searchReference, async ({ query }, deps) => {
  const index = await referenceOf(deps).published.searchIndex();
  if (!index) return { status: 200, json: { results: [], total: 0 } };
  const page = search(index, { ...query, limit: clampSearchLimit(query.limit), offset: resolveSearchOffset(query.offset) });
  return { status: 200, json: page };
});
