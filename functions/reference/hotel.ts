import { routes } from '../../shared/api/routes';
import { notFound } from '../../shared/domain/errors';
import { defineHandler } from '../../shared/http/handler';
import { referenceOf } from '../../shared/runtime/reference';

export const handler = defineHandler(routes.referenceHotel, async ({ params }, deps) => {
  const reference = referenceOf(deps).store;
  const current = await reference.getCurrent();
  const hotel = current && (await reference.getHotel(params.id.toLowerCase(), current.dataVersionId));
  if (!hotel) throw notFound(`No reference hotel has the id ${params.id}.`);
  const merge = await reference.getMerge(hotel.id);
  return {
    status: 200,
    json: {
      id: hotel.id,
      name: hotel.name,
      country: hotel.country,
      city: hotel.city,
      region: hotel.region,
      rating: hotel.rating,
      lat: hotel.lat,
      lon: hotel.lon,
      metadata: {
        address: hotel.address,
        postalCode: hotel.postalCode,
        countryCode: hotel.countryCode,
        chain: hotel.chain,
        supplierCodes: hotel.supplierCodes,
        source: hotel.source,
        versionId: hotel.dataVersionId,
        createdAt: hotel.createdAt ?? hotel.importedAt,
        updatedAt: hotel.importedAt,
        mergedInto: merge?.mergedInto,
      },
    },
  };
});
