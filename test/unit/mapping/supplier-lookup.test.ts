/** The supplier-code lookup of the matching index: an open-addressing table kept as plain data. */
import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { SupplierLookupBuilder, supplierLookupHotel } from '../../../shared/mapping/supplier-lookup';

describe('SupplierLookup', () => {
  it('finds every key set, and -1 for a key never set', () => {
    const builder = new SupplierLookupBuilder(5000);
    for (let hotel = 0; hotel < 5000; hotel++) builder.set(`HOTELBEDS\u0000${hotel * 7}`, hotel);
    const lookup = builder.finish();
    for (let hotel = 0; hotel < 5000; hotel++) assert.equal(supplierLookupHotel(lookup, `HOTELBEDS\u0000${hotel * 7}`), hotel);
    assert.equal(supplierLookupHotel(lookup, 'HOTELBEDS\u00001'), -1);
    assert.equal(supplierLookupHotel(lookup, 'EXPEDIA\u00007'), -1);
    assert.equal(supplierLookupHotel(lookup, ''), -1);
  });

  it('gives a key set twice its later hotel, and keeps it once', () => {
    const builder = new SupplierLookupBuilder(3);
    builder.set('HB\u000077', 1);
    builder.set('EXP\u0000c1', 2);
    builder.set('HB\u000077', 3);
    const lookup = builder.finish();
    assert.equal(supplierLookupHotel(lookup, 'HB\u000077'), 3);
    assert.equal(supplierLookupHotel(lookup, 'EXP\u0000c1'), 2);
    assert.equal(lookup.keys.text, 'HB\u000077EXP\u0000c1');
  });

  it('is plain data: a structured copy finds the same hotels', () => {
    const builder = new SupplierLookupBuilder(2);
    builder.set('HB\u00001', 10);
    builder.set('HB\u00002', 20);
    const copy = structuredClone(builder.finish());
    assert.equal(supplierLookupHotel(copy, 'HB\u00002'), 20);
    assert.equal(supplierLookupHotel(copy, 'HB\u00003'), -1);
  });

  it('refuses more keys than it was made for', () => {
    const builder = new SupplierLookupBuilder(1);
    builder.set('a', 1);
    builder.set('a', 2);
    assert.throws(() => builder.set('b', 3), /more than 1 keys/);
  });
});
