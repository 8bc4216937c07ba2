/**
 * A hotel of the canonical reference inventory, and what any hotel record (a partner's too) may
 * say about a hotel. Pure data, no behaviour.
 */

/** What any hotel record may say about a hotel. */
export interface HotelDescription {
  id: string;
  name: string;
  address?: string;
  city?: string;
  /** Region or state. */
  region?: string;
  postalCode?: string;
  lat?: number;
  lon?: number;
  /** Star rating, 0 to 5. */
  rating?: number;
}

/** A hotel of the canonical reference inventory. */
export interface ReferenceHotel extends HotelDescription {
  /** Country display name as stored, e.g. "France". */
  country?: string;
  /** ISO 3166-1 alpha-2 code, e.g. "FR". */
  countryCode?: string;
  /** Hotel chain or brand, when known. */
  chain?: string;
  /** Codes this hotel is known by at each supplier: supplier code -> that supplier's hotel id. */
  supplierCodes: Record<string, string>;
  /** When the hotel entered the reference inventory (ISO 8601); orders advanced search by "created". */
  createdAt?: string;
}
