/**
 * Inventory files (partner or reference) as hotel records: tabular rows -> PartnerHotel /
 * ReferenceHotel, with a readable reason and the file line for every row that cannot be used.
 * A bad row never stops the file.
 */
import type { ReferenceHotel } from './hotels';
import type { PartnerHotel } from './hotels';
import type { TabularFormat } from '../platform/files/formats';
import { readTabular, type TabularInput, type TabularRecord } from '../platform/files/tabular';
import { toCountryCode } from './countries';

export type InventoryRow<T> = { line: number; hotel: T } | { line: number; error: string };

type Parsed<T> = { hotel: T } | { error: string };

/** Header spellings seen in the wild for each field, compared lower-case without punctuation. */
const COLUMN_ALIASES: Record<string, string> = {
  id: 'id', hotelid: 'id',
  name: 'name', hotelname: 'name',
  address: 'address', street: 'address', addressline: 'address', address1: 'address',
  city: 'city', town: 'city',
  region: 'region', state: 'region', province: 'region',
  postalcode: 'postalCode', postcode: 'postalCode', zip: 'postalCode', zipcode: 'postalCode',
  country: 'country', countrycode: 'country',
  lat: 'lat', latitude: 'lat',
  lon: 'lon', lng: 'lon', long: 'lon', longitude: 'lon',
  rating: 'rating', stars: 'rating', starrating: 'rating',
  chain: 'chain', brand: 'chain',
  suppliercode: 'supplierCode', supplier: 'supplierCode',
  supplierhotelid: 'supplierHotelId', supplierid: 'supplierHotelId',
  suppliercodes: 'supplierCodes',
};

/** The record's values under canonical field names, trimmed; empty values dropped. */
function canonicalFields(record: TabularRecord): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [column, raw] of Object.entries(record)) {
    const field = COLUMN_ALIASES[column.toLowerCase().replace(/[^a-z0-9]/g, '')];
    const value = raw.trim();
    if (field !== undefined && value !== '' && !fields.has(field)) fields.set(field, value);
  }
  return fields;
}

class RowProblem extends Error {}

function parseNumber(fields: Map<string, string>, field: string, min: number, max: number): number | undefined {
  const text = fields.get(field);
  if (text === undefined) return undefined;
  // Decimal commas ("48,8566") are common in European spreadsheets.
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value)) throw new RowProblem(`${field} "${text}" is not a number`);
  if (value < min || value > max) throw new RowProblem(`${field} ${value} is outside ${min}..${max}`);
  return value;
}

/** Fields every inventory shares; throws RowProblem on a value that cannot be right. */
function commonFields(fields: Map<string, string>) {
  const id = fields.get('id');
  const name = fields.get('name');
  if (id === undefined) throw new RowProblem('id is missing');
  if (name === undefined) throw new RowProblem('name is missing');
  const lat = parseNumber(fields, 'lat', -90, 90);
  const lon = parseNumber(fields, 'lon', -180, 180);
  if ((lat === undefined) !== (lon === undefined)) throw new RowProblem('lat and lon must be given together');
  return {
    id,
    name,
    address: fields.get('address'),
    city: fields.get('city'),
    region: fields.get('region'),
    postalCode: fields.get('postalCode'),
    country: fields.get('country'),
    lat,
    lon,
    rating: parseNumber(fields, 'rating', 0, 5),
  };
}

/** Drops undefined properties so records stay compact and compare cleanly. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function parseRow<T>(record: TabularRecord, build: (fields: Map<string, string>) => T): Parsed<T> {
  try {
    return { hotel: build(canonicalFields(record)) };
  } catch (error) {
    if (error instanceof RowProblem) return { error: error.message };
    throw error;
  }
}

export interface PartnerInventoryOptions {
  /** Supplier of the inventory, for rows that carry a supplierHotelId but no supplierCode. */
  defaultSupplierCode?: string;
}

export function partnerHotelFromRecord(record: TabularRecord, options: PartnerInventoryOptions = {}): Parsed<PartnerHotel> {
  return parseRow(record, (fields) =>
    defined({
      ...commonFields(fields),
      supplierCode: fields.get('supplierCode') ?? (fields.has('supplierHotelId') ? options.defaultSupplierCode : undefined),
      supplierHotelId: fields.get('supplierHotelId'),
    }),
  );
}

/**
 * Supplier codes as "HOTELBEDS:12345;EXPEDIA:998877" (or a JSON object, as a JSON inventory
 * gives it) -> { HOTELBEDS: "12345", EXPEDIA: "998877" }.
 */
export function parseSupplierCodes(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  if (text.startsWith('{')) return parseSupplierCodeObject(text);
  const codes: Record<string, string> = {};
  for (const pair of text.split(/[;|]/)) {
    if (pair.trim() === '') continue;
    const separator = pair.indexOf(':');
    const supplier = pair.slice(0, separator).trim();
    const hotelId = pair.slice(separator + 1).trim();
    if (separator < 0 || supplier === '' || hotelId === '') {
      throw new RowProblem(`supplierCodes entry "${pair.trim()}" is not SUPPLIER:hotelId`);
    }
    codes[supplier] = hotelId;
  }
  return codes;
}

function parseSupplierCodeObject(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RowProblem('supplierCodes is not valid JSON');
  }
  const codes: Record<string, string> = {};
  for (const [supplier, hotelId] of Object.entries(value as Record<string, unknown>)) {
    if (typeof hotelId !== 'string' && typeof hotelId !== 'number') throw new RowProblem(`supplierCodes.${supplier} is not a hotel id`);
    codes[supplier] = String(hotelId);
  }
  return codes;
}

export function referenceHotelFromRecord(record: TabularRecord): Parsed<ReferenceHotel> {
  return parseRow(record, (fields) => {
    const common = commonFields(fields);
    return defined({
      ...common,
      countryCode: toCountryCode(common.country),
      chain: fields.get('chain'),
      supplierCodes: parseSupplierCodes(fields.get('supplierCodes')),
    });
  });
}

async function* readInventory<T extends { id: string }>(
  input: TabularInput,
  format: TabularFormat,
  fromRecord: (record: TabularRecord) => Parsed<T>,
): AsyncGenerator<InventoryRow<T>> {
  const firstLineOfId = new Map<string, number>();
  for await (const row of readTabular(input, format)) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const parsed = fromRecord(row.record);
    if ('error' in parsed) {
      yield { line: row.line, error: parsed.error };
      continue;
    }
    const firstLine = firstLineOfId.get(parsed.hotel.id);
    if (firstLine !== undefined) {
      yield { line: row.line, error: `id "${parsed.hotel.id}" already used on line ${firstLine}` };
      continue;
    }
    firstLineOfId.set(parsed.hotel.id, row.line);
    yield { line: row.line, hotel: parsed.hotel };
  }
}

export function readPartnerInventory(input: TabularInput, format: TabularFormat, options: PartnerInventoryOptions = {}): AsyncIterable<InventoryRow<PartnerHotel>> {
  return readInventory(input, format, (record) => partnerHotelFromRecord(record, options));
}

export function readReferenceInventory(input: TabularInput, format: TabularFormat): AsyncIterable<InventoryRow<ReferenceHotel>> {
  return readInventory(input, format, referenceHotelFromRecord);
}
