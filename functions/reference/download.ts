import { EXPIRATION_MINUTES } from '../../shared/reference/schemas';
import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';

export const handler = defineHandler(routes.downloadReference, async ({ query }, deps) => {
  const { store, ports } = referenceOf(deps);
  const current = await store.getCurrent();
  if (!current) throw notFound('No reference inventory has been generated yet.');
  const minutes = query.expirationMinutes ?? EXPIRATION_MINUTES.default;
  return {
    status: 200,
    json: {
      fileUrl: await ports.objects.presignedDownloadUrl(current.artifacts.snapshotKey, minutes * 60),
      expiresAt: new Date(deps.clock.now().getTime() + minutes * 60_000).toISOString(),
      hotelCount: current.hotelCount,
      versionId: current.artifactsId,
    },
  };
});
