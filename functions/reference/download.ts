import { EXPIRATION_MINUTES } from '../../shared/api/reference-schemas';
import { routes } from '../../shared/api/routes';
import { notFound } from '../../shared/domain/errors';
import { defineHandler } from '../../shared/http/handler';

export const handler = defineHandler(routes.downloadReference, async ({ query }, { reference, objects, clock }) => {
  const current = await reference.getCurrent();
  if (!current) throw notFound('No reference inventory has been generated yet.');
  const minutes = query.expirationMinutes ?? EXPIRATION_MINUTES.default;
  return {
    status: 200,
    json: {
      fileUrl: await objects.presignedDownloadUrl(current.artifacts.snapshotKey, minutes * 60),
      expiresAt: new Date(clock.now().getTime() + minutes * 60_000).toISOString(),
      hotelCount: current.hotelCount,
      versionId: current.artifactsId,
    },
  };
});
