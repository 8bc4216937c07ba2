import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { clampSearchLimit, resolveSearchOffset, search } from '../../shared/reference/search-index';

export const handler = defineHandler(routes.searchReference, async ({ query }, { publishedReference }) => {
  const index = await publishedReference.searchIndex();
  if (!index) return { status: 200, json: { results: [], total: 0 } };
  const page = search(index, { ...query, limit: clampSearchLimit(query.limit), offset: resolveSearchOffset(query.offset) });
  return { status: 200, json: page };
});
