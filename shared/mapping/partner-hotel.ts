import type { HotelDescription } from '../reference';

/** One row of a partner's uploaded inventory. */
export interface PartnerHotel extends HotelDescription {
  /** Country as the partner wrote it: a name or an ISO code. */
  country?: string;
  /** Supplier whose hotel ids the partner uses (ID_TO_ID, HYBRID). */
  supplierCode?: string;
  /** The hotel's id at that supplier. */
  supplierHotelId?: string;
}
