import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';
import { referenceOf } from '../../shared/reference/services';

export const handler = defineHandler(routes.referenceHotel, async ({ params }, deps) => {
  const reference = referenceOf(deps).store;
  const id = params.id.toLowerCase();
  const [current, merge] = await Promise.all([reference.getCurrent({ consistent: false }), reference.getMerge(id)]);
  const hotel = current && (await reference.getHotel(id, current.dataVersionId));
  if (!hotel) throw notFound(`No reference hotel has the id ${params.id}.`);
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
