/**
 * The hotel records the engine compares: a hotel of the canonical reference inventory and one row
 * of a partner's inventory. Pure data, no behaviour.
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

/** One row of a partner's uploaded inventory. */
export interface PartnerHotel extends HotelDescription {
  /** Country as the partner wrote it: a name or an ISO code. */
  country?: string;
  /** Supplier whose hotel ids the partner uses (ID_TO_ID, HYBRID). */
  supplierCode?: string;
  /** The hotel's id at that supplier. */
  supplierHotelId?: string;
}
