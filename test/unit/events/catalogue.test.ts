import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { EVENT_CATALOGUE, EVENT_TYPES, eventsOfPlan, lowestPlanName, planAllowsEvent, sampleData } from '../../../shared/events';

describe('the event catalogue', () => {
  it('lists every event it defines, and each sample has its data schema', () => {
    assert.deepEqual([...EVENT_TYPES].sort(), Object.keys(EVENT_CATALOGUE).sort());
    for (const type of EVENT_TYPES) v.parse(EVENT_CATALOGUE[type].data, sampleData(type, '2026-11-26T10:00:00.000Z'));
  });

  it('opens each event to its lowest plan and every plan above it', () => {
    assert.deepEqual(eventsOfPlan('FREE'), ['MAPPING_COMPLETED', 'MAPPING_BOOK_CHANGED', 'DELIVERY_DESTINATION_DISABLED']);
    assert.deepEqual(eventsOfPlan('SUBSCRIPTION'), [
      'MAPPING_COMPLETED',
      'MAPPING_ERROR_RESOLVED',
      'MAPPING_BOOK_CHANGED',
      'DELIVERY_DESTINATION_DISABLED',
    ]);
    assert.deepEqual(eventsOfPlan('ENTERPRISE'), [
      'MAPPING_COMPLETED',
      'MAPPING_ERROR_RESOLVED',
      'MAPPING_BOOK_CHANGED',
      'INVENTORY_DUPLICATE_RESOLVED',
      'DELIVERY_DESTINATION_DISABLED',
    ]);
    assert.equal(planAllowsEvent('FREE', 'MAPPING_ERROR_RESOLVED'), false);
    assert.equal(lowestPlanName('MAPPING_ERROR_RESOLVED'), 'Professional');
    assert.equal(lowestPlanName('INVENTORY_DUPLICATE_RESOLVED'), 'Enterprise');
  });
});
