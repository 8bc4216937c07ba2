import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import {
  InventoryIds,
  parseSupplierCodes,
  readPartnerInventory,
  readReferenceInventory,
  readReferenceInventoryBatches,
  rowErrorInFile,
  type InventoryRow,
} from '../../../shared/mapping/inventory';
import { csvHeaderOf, TabularParseError, type CsvLineEnd } from '../../../shared/platform/files/tabular';

async function collect<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<InventoryRow<T>[]> {
  const all: InventoryRow<T>[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe('reference inventory', () => {
  it('reads the documented columns, with country names or codes and supplier codes', async () => {
    const csv = [
      'id,name,address,city,region,postalCode,country,lat,lon,rating,supplierCodes',
      'r1,Hotel One,1 Main St,Paris,IDF,75001,France,48.86,2.34,4,HOTELBEDS:12345;EXPEDIA:998877',
      'r2,Hotel Two,,Berlin,,,DEU,,,,',
    ].join('\n');
    const rows = await collect(readReferenceInventory(Buffer.from(csv), 'csv'));
    assert.deepEqual(rows, [
      {
        line: 2,
        hotel: {
          id: 'r1',
          name: 'Hotel One',
          address: '1 Main St',
          city: 'Paris',
          region: 'IDF',
          postalCode: '75001',
          country: 'France',
          countryCode: 'FR',
          lat: 48.86,
          lon: 2.34,
          rating: 4,
          supplierCodes: { HOTELBEDS: '12345', EXPEDIA: '998877' },
        },
      },
      { line: 3, hotel: { id: 'r2', name: 'Hotel Two', city: 'Berlin', country: 'DEU', countryCode: 'DE', supplierCodes: {} } },
    ]);
  });

  it('reports each bad row with its line and reason and keeps reading', async () => {
    const csv = [
      'id,name,lat,lon,rating,supplierCodes',
      'r1,Fine,1,2,3,',
      ',No id,,,,',
      'r3,,,,,',
      'r4,Bad lat,north,2,,',
      'r5,Half pin,10,,,',
      'r6,Bad rating,,,7,',
      'r7,Bad codes,,,,HOTELBEDS',
      'r1,Duplicate,,,,',
      'r9,"Broken, row",1,2,3,x:1,extra',
      'r10,Also fine,,,,',
    ].join('\n');
    const rows = await collect(readReferenceInventory(Buffer.from(csv), 'csv'));
    const errors = rows.filter((row) => 'error' in row).map((row) => [row.line, (row as { error: string }).error]);
    assert.deepEqual(errors, [
      [3, 'id is missing'],
      [4, 'name is missing'],
      [5, 'lat "north" is not a number'],
      [6, 'lat and lon must be given together'],
      [7, 'rating 7 is outside 0..5'],
      [8, 'supplierCodes entry "HOTELBEDS" is not SUPPLIER:hotelId'],
      [9, 'id "r1" already used on line 2'],
      [10, 'has 7 fields but the header has 6'],
    ]);
    assert.deepEqual(
      rows.filter((row) => 'hotel' in row).map((row) => row.line),
      [2, 11],
    );
  });

  it('refuses, with line and reason, values too long for any real inventory, control characters, and numbers no one writes', async () => {
    const csv = [
      'id,name,address,lat,lon,rating',
      `r1,${'N'.repeat(501)},,,,`,
      `r2,Fine name,${'A'.repeat(500)},,,`,
      `${'i'.repeat(201)},Long id,,,,`,
      'r4,Bell\u0007Hotel,,,,',
      'r5,Nul\u0000Inn,,,,',
      'r6,Evil \u202eLodge,,,,',
      'r7,C1 \u0085Motel,,,,',
      'r8,Hex pin,,0x10,2,',
      'r9,Plus pin,,+5,2,',
      'r10,Exponent,,1e1,2,',
      'r11,Comma pin,,"48,85",2.35,4',
      'r12,Dot first,,.5,-.5,',
      'r13,"Tab\tand ""quotes""",,,,',
    ].join('\n');
    const rows = await collect(readReferenceInventory(Buffer.from(csv), 'csv'));
    const errors = rows.filter((row) => 'error' in row).map((row) => [row.line, (row as { error: string }).error]);
    assert.deepEqual(errors, [
      [2, 'name is 501 characters long, over the 500 allowed'],
      [4, 'id is 201 characters long, over the 200 allowed'],
      [5, 'name holds the control character U+0007'],
      [6, 'name holds the control character U+0000'],
      [7, 'name holds the control character U+202E'],
      [8, 'name holds the control character U+0085'],
      [9, 'lat "0x10" is not a number'],
      [10, 'lat "+5" is not a number'],
      [11, 'lat "1e1" is not a number'],
    ]);
    const hotels = rows.flatMap((row) => ('hotel' in row ? [row.hotel] : []));
    assert.deepEqual(
      hotels.map((hotel) => hotel.id),
      ['r2', 'r11', 'r12', 'r13'],
    );
    assert.deepEqual([hotels[1]!.lat, hotels[2]!.lat, hotels[2]!.lon], [48.85, 0.5, -0.5]);
    assert.equal(hotels[3]!.name, 'Tab\tand "quotes"');
  });

  it('accepts supplier codes as a JSON object (JSON and JSONL inventories)', async () => {
    const jsonl = '{"id":"r1","name":"A","supplierCodes":{"GTA":"G1","TBO":7}}\n';
    const rows = await collect(readReferenceInventory(Buffer.from(jsonl), 'jsonl'));
    assert.deepEqual((rows[0] as { hotel: { supplierCodes: unknown } }).hotel.supplierCodes, { GTA: 'G1', TBO: '7' });
    assert.deepEqual(parseSupplierCodes(' HOTELBEDS : 1 ; EXPEDIA:2 ;'), { HOTELBEDS: '1', EXPEDIA: '2' });
  });

  it('reads supplier codes as SUPPLIER:hotelId entries split by ";" or "|", the hotel id past the first colon', () => {
    assert.deepEqual(parseSupplierCodes('GTA:G1|TBO:7; ;DERBY:DS:9'), { GTA: 'G1', TBO: '7', DERBY: 'DS:9' });
    assert.deepEqual(parseSupplierCodes(''), {});
    for (const [text, entry] of [
      ['GTA:', 'GTA:'],
      [':123', ':123'],
      ['GTA;TBO:7', 'GTA'],
      ['TBO:7| : ', ':'],
    ]) {
      assert.throws(() => parseSupplierCodes(text), { message: `supplierCodes entry "${entry}" is not SUPPLIER:hotelId` });
    }
  });

  it('refuses "__proto__" as a supplier code rather than losing the entry', () => {
    for (const text of ['HB:1;__proto__:2', ' __proto__ :2', '{"HB":"1","__proto__":"2"}']) {
      assert.throws(() => parseSupplierCodes(text), { message: 'supplierCodes: "__proto__" cannot be a supplier code' }, text);
    }
    // Any other name is a supplier of its own, however odd.
    assert.deepEqual(parseSupplierCodes('constructor:1;toString:2'), { constructor: '1', toString: '2' });
  });

  it('lets an unreadable file fail as a whole', async () => {
    await assert.rejects(collect(readReferenceInventory(Buffer.from('id,name\n"r1,A\n'), 'csv')), TabularParseError);
  });
});

describe('partner inventory', () => {
  it('reads supplier code and id, accepts common header spellings and decimal commas', async () => {
    const csv =
      'Hotel ID;Hotel Name;Latitude;Longitude;Zip;Country;Supplier Code;Supplier Hotel ID\nP1;Hôtel A;48,85;2,35;75001;fr;HOTELBEDS;123\n';
    const rows = await collect(readPartnerInventory(Buffer.from(csv), 'csv'));
    assert.deepEqual(rows, [
      {
        line: 2,
        hotel: {
          id: 'P1',
          name: 'Hôtel A',
          lat: 48.85,
          lon: 2.35,
          postalCode: '75001',
          country: 'fr',
          supplierCode: 'HOTELBEDS',
          supplierHotelId: '123',
        },
      },
    ]);
  });
  it("uses the inventory's supplier when rows only carry a supplier hotel id", async () => {
    const rows = await collect(
      readPartnerInventory(Buffer.from('id,name,supplierHotelId\nP1,A,55\nP2,B,\n'), 'csv', { defaultSupplierCode: 'EXPEDIA' }),
    );
    assert.deepEqual(
      rows.map((row) => ('hotel' in row ? [row.hotel.supplierCode, row.hotel.supplierHotelId] : row.error)),
      [
        ['EXPEDIA', '55'],
        [undefined, undefined],
      ],
    );
  });
});

describe('an inventory read in two parts (as `npm run map` reads a large reference file)', () => {
  async function collectBatches<T>(batches: AsyncIterable<InventoryRow<T>[]>): Promise<InventoryRow<T>[]> {
    const all: InventoryRow<T>[] = [];
    for await (const batch of batches) all.push(...batch);
    return all;
  }

  it("gives the whole file's rows and errors, the second part's renumbered from the line the first ends on", async () => {
    const csv = [
      'id,name,lat,lon',
      'r1,One,1,2',
      'r2,"Two\nlines",,',
      'r3,,,',
      'r4,Four,,',
      'r5,Bad,north,1',
      'r4,Again,,',
      'r6,"Six, ""quoted""",,',
      '',
    ].join('\n');
    const whole = await collect(readReferenceInventory(Buffer.from(csv), 'csv'));
    assert.deepEqual(
      whole.filter((row) => 'error' in row),
      [
        { line: 5, error: 'name is missing' },
        { line: 7, error: 'lat "north" is not a number' },
        { line: 8, error: 'id "r4" already used on line 6', repeatedId: { id: 'r4', firstLine: 6 } },
      ],
    );
    const at = csv.indexOf('r4,Four');
    let end: { line: number; lineEnd: CsvLineEnd } | undefined;
    const ids = new InventoryIds();
    const first = await collectBatches(
      readReferenceInventoryBatches(Buffer.from(csv.slice(0, at)), 'csv', {
        csvOptions: { strict: true, onEnd: (found) => (end = found) },
        ids,
      }),
    );
    const part = { ...csvHeaderOf(Buffer.from(csv))!, firstLine: 1 };
    const second = await collectBatches(
      readReferenceInventoryBatches(Buffer.from(csv.slice(at)), 'csv', { csvOptions: { strict: true, part } }),
    );
    assert.equal(end?.line, 6);
    const renumbered = second.map((row): InventoryRow<ReferenceHotel> =>
      'error' in row ? rowErrorInFile(row, end!.line) : { ...row, line: row.line + end!.line - 1 },
    );
    assert.deepEqual([...first, ...renumbered], whole);
    assert.equal(ids.lineOf('r2'), 3);
    assert.equal(ids.lineOf('r4'), undefined, 'the second part has ids of its own');
  });

  it('renumbers only the lines of an error, whatever the id or the message holds', () => {
    const repeated = {
      line: 3,
      error: 'id "a" already used on line 2" already used on line 1',
      repeatedId: { id: 'a" already used on line 2', firstLine: 1 },
    };
    assert.deepEqual(rowErrorInFile(repeated, 10), {
      line: 12,
      error: 'id "a" already used on line 2" already used on line 10',
      repeatedId: { id: 'a" already used on line 2', firstLine: 10 },
    });
    assert.deepEqual(rowErrorInFile({ line: 1, error: 'lat "line 4" is not a number' }, 10), {
      line: 10,
      error: 'lat "line 4" is not a number',
    });
    assert.deepEqual(
      rowErrorInFile({ line: 2, error: 'id "b" already used on line 1' }, 10),
      { line: 11, error: 'id "b" already used on line 1' },
      'a message is not parsed',
    );
  });
});

describe('JSON and JSON Lines inventories', () => {
  it('name a rejected element of a JSON array by its index (from 0), also when the whole array is one line', async () => {
    const json =
      '[{"id":"A","name":"One"},{"id":"B"},{"id":"C","name":"Three","lat":95,"lon":0},"oops",{"id":"A","name":"Again"},{"id":"D","name":"Four"}]';
    const rows = await collect(readPartnerInventory(Buffer.from(json), 'json'));
    assert.deepEqual(rows, [
      { line: 1, hotel: { id: 'A', name: 'One' } },
      { line: 1, error: 'element 1: name is missing' },
      { line: 1, error: 'element 2: lat 95 is outside -90..90' },
      { line: 1, error: 'element 3 is not a JSON object' },
      { line: 1, error: 'element 4: id "A" already used by element 0' },
      { line: 1, hotel: { id: 'D', name: 'Four' } },
    ]);
  });

  it('refuse a field of the wrong type: text fields take strings, lat, lon and rating numbers or numeric text; null is empty, other keys are ignored', async () => {
    const jsonl = [
      '{"id":"P1","name":{"en":"Hotel"}}',
      '{"id":12345,"name":"Numbered"}',
      '{"id":"P3","name":["A"]}',
      '{"id":"P4","name":"Flag","city":true}',
      '{"id":"P5","name":"Coordinates","lat":48.85,"lon":"2,35","rating":4}',
      '{"id":"P5e","name":"Near the equator","lat":1e-7,"lon":-2.5E1}',
      '{"id":"P6","name":"No city","city":null,"supplierHotelId":"77","notes":{"any":["thing"]}}',
      '{"id":"P7","name":"Bad lat","lat":{"deg":1},"lon":2}',
      '{"id":"P8","name":"Big id","supplierHotelId":1234567890123456789}',
      '{"id":"P9","name":"Wrong rating","rating":false}',
      '{"id":"P10","name":"Postcode","hotel_name":"Shadowed","postalCode":75001}',
    ].join('\n');
    const rows = await collect(readPartnerInventory(Buffer.from(jsonl), 'jsonl', { defaultSupplierCode: 'EXPEDIA' }));
    assert.deepEqual(rows, [
      { line: 1, error: 'name must be text, not an object' },
      { line: 2, error: 'id must be text, not a number (put it in quotes)' },
      { line: 3, error: 'name must be text, not an array' },
      { line: 4, error: 'city must be text, not a boolean' },
      { line: 5, hotel: { id: 'P5', name: 'Coordinates', lat: 48.85, lon: 2.35, rating: 4 } },
      { line: 6, hotel: { id: 'P5e', name: 'Near the equator', lat: 1e-7, lon: -25 } },
      { line: 7, hotel: { id: 'P6', name: 'No city', supplierCode: 'EXPEDIA', supplierHotelId: '77' } },
      { line: 8, error: 'lat must be a number, not an object' },
      { line: 9, error: 'supplierHotelId must be text, not a number (put it in quotes)' },
      { line: 10, error: 'rating must be a number, not a boolean' },
      { line: 11, error: 'postalCode must be text, not a number (put it in quotes)' },
    ]);
  });

  it('take supplier codes as text or an object, nothing else', async () => {
    const jsonl =
      '{"id":"r1","name":"A","supplierCodes":{"GTA":"G1"}}\n{"id":"r2","name":"B","supplierCodes":"GTA:G2"}\n{"id":"r3","name":"C","supplierCodes":7}\n{"id":"r4","name":"D","supplierCodes":["GTA:G4"]}\n';
    const rows = await collect(readReferenceInventory(Buffer.from(jsonl), 'jsonl'));
    assert.deepEqual(
      rows.map((row) => ('hotel' in row ? row.hotel.supplierCodes : row.error)),
      [
        { GTA: 'G1' },
        { GTA: 'G2' },
        'supplierCodes must be text or an object, not a number',
        'supplierCodes must be text or an object, not an array',
      ],
    );
  });
});
