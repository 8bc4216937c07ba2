/**
 * Geo mode: hotels within a radius of a point, nearest first. The KD-tree answers a bounding box
 * (split in two across the antimeridian); exact great-circle (haversine) distances then keep the
 * hotels inside the circle. Cost grows with the hotels in the box, never with the inventory.
 */
import type { ReferenceSearchIndex } from './index-model';
import { rowPasses, summarize, type RowFilter } from './row-filter';
import { TopK } from './top-k';
import type { SearchPage } from './types';

/** Mean Earth radius (IUGG). */
export const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180;
const RADIANS = Math.PI / 180;

export interface GeoCircle {
  lat: number;
  lon: number;
  radiusKm: number;
}

export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** [minLon, minLat, maxLon, maxLat] boxes that together cover the circle. */
export function boundingBoxes({ lat, lon, radiusKm }: GeoCircle): Array<[number, number, number, number]> {
  const latDelta = radiusKm / KM_PER_DEGREE_LATITUDE;
  const minLat = Math.max(-90, lat - latDelta);
  const maxLat = Math.min(90, lat + latDelta);
  const widestLat = Math.max(Math.abs(minLat), Math.abs(maxLat));
  // Near a pole, or for a circle wider than a hemisphere, every longitude is in reach.
  if (widestLat >= 89.999 || radiusKm >= (Math.PI * EARTH_RADIUS_KM) / 2) return [[-180, minLat, 180, maxLat]];
  const lonDelta = latDelta / Math.cos(widestLat * RADIANS);
  if (lonDelta >= 180) return [[-180, minLat, 180, maxLat]];
  const west = lon - lonDelta;
  const east = lon + lonDelta;
  if (west < -180)
    return [
      [-180, minLat, east, maxLat],
      [west + 360, minLat, 180, maxLat],
    ];
  if (east > 180)
    return [
      [west, minLat, 180, maxLat],
      [-180, minLat, east - 360, maxLat],
    ];
  return [[west, minLat, east, maxLat]];
}

export function searchNearby(index: ReferenceSearchIndex, circle: GeoCircle, filter: RowFilter, limit: number, offset: number): SearchPage {
  const { geoHotels, lat, lon } = index.columns;
  // Score = minus the distance, so that TopK keeps the nearest. A huge offset must not size the heap.
  const nearest = new TopK(Math.min(offset + limit, geoHotels.length));
  let total = 0;
  for (const [minLon, minLat, maxLon, maxLat] of boundingBoxes(circle)) {
    for (const treeItem of index.geoTree.range(minLon, minLat, maxLon, maxLat)) {
      // An inventory without coordinates has one placeholder tree item beyond geoHotels.
      if (treeItem >= geoHotels.length) continue;
      const row = geoHotels[treeItem]!;
      const distance = haversineKm(circle.lat, circle.lon, lat[row]!, lon[row]!);
      if (distance > circle.radiusKm || !rowPasses(index, filter, row)) continue;
      total++;
      nearest.offer(-distance, row);
    }
  }
  const results = nearest
    .sorted()
    .slice(offset)
    .map(({ row }) => summarize(index, row));
  return { results, total };
}
