/** The data of synthetic test events: the shape each real event carries, with placeholder values. */
import type { EventType } from '../platform/events/events';

export function sampleData(type: EventType, at: string): Record<string, unknown> {
  switch (type) {
    case 'MAPPING_COMPLETED':
      return {
        mappingJobId: '00000000-0000-4000-8000-000000000001',
        partnerInventoryId: '00000000-0000-4000-8000-000000000002',
        mode: 'STANDARD',
        status: 'COMPLETED',
        counts: { total: 3, processed: 3, matched: 1, review: 1, unmatched: 1 },
        createdAt: at,
        completedAt: at,
      };
    case 'MAPPING_ERROR_RESOLVED':
      return {
        mappingJobId: '00000000-0000-4000-8000-000000000001',
        partnerHotelId: 'HOTEL-1',
        decision: 'MATCH',
        referenceHotelId: '00000000-0000-4000-8000-000000000003',
        previousStatus: 'REVIEW',
        previousReferenceHotelId: '00000000-0000-4000-8000-000000000004',
        note: 'Test event',
        decidedBy: 'test',
        decidedAt: at,
      };
    case 'INVENTORY_DUPLICATE_RESOLVED':
      return {
        reportId: '00000000-0000-4000-8000-000000000005',
        decision: 'MERGE',
        originalHotelId: '00000000-0000-4000-8000-000000000003',
        duplicateHotelId: '00000000-0000-4000-8000-000000000004',
        mergedInto: '00000000-0000-4000-8000-000000000003',
      };
  }
}
