// @ts-check
/**
 * Where the partner's hotel and the reference hotels weighed for it are, drawn as an SVG from their
 * coordinates alone: pins, the distance from the partner's pin to each, north up and a scale. No
 * map tiles, so it works offline and behind a policy that blocks tile servers.
 */
import { distance, svg } from './dom.js';

/** @typedef {{ label: string, name: string, lat?: number, lon?: number, kind: 'partner' | 'proposal' | 'candidate' }} Pin */

const WIDTH = 420;
const HEIGHT = 320;
const PADDING = 36;
const METERS_PER_DEGREE = 111_320;

/** Great-circle distance in metres. @param {{lat: number, lon: number}} a @param {{lat: number, lon: number}} b */
export function metersBetween(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/** The round length (1, 2 or 5 times a power of ten metres) nearest below `meters`. @param {number} meters */
function roundLength(meters) {
  const power = 10 ** Math.floor(Math.log10(meters));
  return [5, 2, 1].map((step) => step * power).find((length) => length <= meters) ?? power;
}

/**
 * @param {Pin[]} pins the partner's first
 * @returns {SVGElement}
 */
export function pinMap(pins) {
  const placed = /** @type {(Pin & { lat: number, lon: number })[]} */ (
    pins.filter((pin) => pin.lat !== undefined && pin.lon !== undefined)
  );
  const partner = placed.find((pin) => pin.kind === 'partner');
  const description = placed
    .filter((pin) => pin !== partner)
    .map((pin) => `${pin.label} ${partner ? distance(metersBetween(partner, pin)) + ' from the partner pin' : ''}`)
    .join('; ');
  const unplaced = pins.filter((pin) => !placed.includes(/** @type {any} */ (pin))).map((pin) => pin.label);
  const map = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'map',
    role: 'img',
    'aria-label': `Map of ${placed.length} pins. ${description}${unplaced.length ? `. No coordinates: ${unplaced.join(', ')}` : ''}`,
  });
  // Without the partner's pin, the hotels are drawn among themselves: no distance from P.
  if (unplaced.length)
    map.append(
      svg('text', { x: 12, y: 20, class: 'map-note' }, `No coordinates: ${unplaced.join(', ')}${partner ? '' : ' (no distances from P)'}`),
    );
  if (placed.length === 0) {
    map.append(svg('text', { x: WIDTH / 2, y: HEIGHT / 2, 'text-anchor': 'middle', class: 'map-note' }, 'No coordinates to draw'));
    return map;
  }
  // An equirectangular projection around the pins' middle: true to scale over a city's few kilometres.
  const lats = placed.map((pin) => pin.lat);
  const lons = placed.map((pin) => pin.lon);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const midLon = (Math.min(...lons) + Math.max(...lons)) / 2;
  const lonMeters = METERS_PER_DEGREE * Math.cos((midLat * Math.PI) / 180);
  const spanMeters = Math.max(
    (Math.max(...lons) - Math.min(...lons)) * lonMeters,
    (Math.max(...lats) - Math.min(...lats)) * METERS_PER_DEGREE,
    200,
  );
  const pixelsPerMeter = Math.min(WIDTH - 2 * PADDING, HEIGHT - 2 * PADDING) / spanMeters;
  /** @param {{lat: number, lon: number}} pin */
  const at = (pin) => ({
    x: WIDTH / 2 + (pin.lon - midLon) * lonMeters * pixelsPerMeter,
    y: HEIGHT / 2 - (pin.lat - midLat) * METERS_PER_DEGREE * pixelsPerMeter,
  });

  if (partner) {
    const from = at(partner);
    for (const pin of placed) {
      if (pin === partner) continue;
      const to = at(pin);
      // The distance beside the pin it leads to: pins bunched near P keep their own labels apart.
      map.append(
        svg('line', { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: `leg leg-${pin.kind}` }),
        svg('text', { x: to.x + 12, y: to.y + 4, class: 'leg-label' }, distance(metersBetween(partner, pin))),
      );
    }
  }
  // The partner's pin drawn last, on top.
  for (const pin of [...placed.filter((p) => p !== partner), ...(partner ? [partner] : [])]) {
    const { x, y } = at(pin);
    map.append(
      svg(
        'g',
        { class: `pin pin-${pin.kind}` },
        svg('title', {}, `${pin.label}: ${pin.name}`),
        svg('circle', { cx: x, cy: y, r: pin.kind === 'partner' ? 9 : 8 }),
        svg('text', { x, y: y + 4, 'text-anchor': 'middle' }, pin.label),
      ),
    );
  }
  map.append(svg('text', { x: WIDTH - 14, y: 20, 'text-anchor': 'middle', class: 'north' }, 'N ↑'));
  // A scale needs two pins to measure between: one pin alone is drawn without one.
  if (placed.length < 2) return map;
  const scaleMeters = roundLength(spanMeters / 3);
  map.append(
    svg('line', { x1: 12, y1: HEIGHT - 14, x2: 12 + scaleMeters * pixelsPerMeter, y2: HEIGHT - 14, class: 'scale' }),
    svg('text', { x: 12, y: HEIGHT - 20, class: 'scale-label' }, distance(scaleMeters)),
  );
  return map;
}
