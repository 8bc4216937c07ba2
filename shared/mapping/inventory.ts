/**
 * Inventory files (partner or reference) as hotel records: tabular rows -> PartnerHotel /
 * ReferenceHotel, with a readable reason and the file line for every row that cannot be used.
 * A bad row never stops the file.
 */
import type { HotelDescription, PartnerHotel, ReferenceHotel } from './hotels';
import type { TabularFormat } from '../platform/files/formats';
import {
  readTabularBatches,
  type CsvReadOptions,
  type TabularInput,
  type TabularLimits,
  type TabularRecord,
} from '../platform/files/tabular';
import { codePointName, LONE_SURROGATE, TAB_OR_LINE_BREAK, UNSAFE_TEXT_CHARACTER } from '../platform/text';
import { toCountryCode } from './countries';
import { TextKeyTable, withRoom } from './columns';

/** A bad row: its line, what is wrong, and for an id already used, which and where first (to renumber a part's errors). */
export type InventoryRowError = { line: number; error: string; repeatedId?: { id: string; firstLine: number } };

export type InventoryRow<T> = { line: number; hotel: T } | InventoryRowError;

/** The canonical fields, by number: a row's values are an array indexed by these. */
const FIELDS = [
  'id',
  'name',
  'address',
  'city',
  'region',
  'postalCode',
  'country',
  'lat',
  'lon',
  'rating',
  'chain',
  'supplierCode',
  'supplierHotelId',
  'supplierCodes',
] as const;
type Field = (typeof FIELDS)[number];

/** Header spellings seen in the wild for each field, compared lower-case without punctuation. */
const COLUMN_ALIASES: Record<string, Field> = {
  id: 'id',
  hotelid: 'id',
  name: 'name',
  hotelname: 'name',
  address: 'address',
  street: 'address',
  addressline: 'address',
  address1: 'address',
  city: 'city',
  town: 'city',
  region: 'region',
  state: 'region',
  province: 'region',
  postalcode: 'postalCode',
  postcode: 'postalCode',
  zip: 'postalCode',
  zipcode: 'postalCode',
  country: 'country',
  countrycode: 'country',
  lat: 'lat',
  latitude: 'lat',
  lon: 'lon',
  lng: 'lon',
  long: 'lon',
  longitude: 'lon',
  rating: 'rating',
  stars: 'rating',
  starrating: 'rating',
  chain: 'chain',
  brand: 'chain',
  suppliercode: 'supplierCode',
  supplier: 'supplierCode',
  supplierhotelid: 'supplierHotelId',
  supplierid: 'supplierHotelId',
  suppliercodes: 'supplierCodes',
};

const ID = 0;
const NAME = 1;
const ADDRESS = 2;
const CITY = 3;
const REGION = 4;
const POSTAL_CODE = 5;
const COUNTRY = 6;
const LAT = 7;
const LON = 8;
const RATING = 9;
const CHAIN = 10;
const SUPPLIER_CODE = 11;
const SUPPLIER_HOTEL_ID = 12;
const SUPPLIER_CODES = 13;

/** A row's values under canonical fields (FIELDS order), trimmed; undefined when empty or absent. */
type FieldValues = (string | undefined)[];

const fieldOfColumnCache = new Map<string, number>();

/** Number of the canonical field a column name stands for; -1 for none. */
function fieldOfColumn(column: string): number {
  let field = fieldOfColumnCache.get(column);
  if (field === undefined) {
    const key = column.toLowerCase().replace(/[^a-z0-9]/g, '');
    field = Object.hasOwn(COLUMN_ALIASES, key) ? FIELDS.indexOf(COLUMN_ALIASES[key]!) : -1;
    // JSON rows may each bring their own keys: keep the cache bounded.
    if (fieldOfColumnCache.size >= 10_000) fieldOfColumnCache.clear();
    fieldOfColumnCache.set(column, field);
  }
  return field;
}

/** Sets a field from a raw value unless it is empty or an earlier column already gave that field a value. */
function offer(values: FieldValues, field: number, raw: string): void {
  if (field < 0 || values[field] !== undefined) return;
  const value = raw.trim();
  if (value !== '') values[field] = value;
}

function emptyValues(): FieldValues {
  return new Array<string | undefined>(FIELDS.length).fill(undefined);
}

/** The record's values by canonical field (see FieldValues). */
function valuesOfRecord(record: TabularRecord): FieldValues {
  const values = emptyValues();
  for (const [column, raw] of Object.entries(record)) offer(values, fieldOfColumn(column), raw);
  return values;
}

/** For rows read as cells: the (cell index, field) pairs of a header's named columns, in header order. */
function columnPlan(header: readonly string[]): Int32Array {
  const plan: number[] = [];
  header.forEach((name, index) => {
    const field = name === '' ? -1 : fieldOfColumn(name);
    if (field >= 0) plan.push(index, field);
  });
  return Int32Array.from(plan);
}

function valuesOfCells(plan: Int32Array, cells: readonly string[]): FieldValues {
  const values = emptyValues();
  for (let k = 0; k < plan.length; k += 2) offer(values, plan[k + 1]!, cells[plan[k]!] ?? '');
  return values;
}

class RowProblem extends Error {}

/** The fields JSON gives as numbers (or as numeric text, as other formats do). */
const NUMERIC_FIELDS: ReadonlySet<number> = new Set([LAT, LON, RATING]);

/** What a JSON value is, in the words of a reason. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/**
 * A JSON value as the text of a field, when JSON typed it as the field wants: text fields take
 * strings, lat, lon and rating numbers or numeric text, supplierCodes text or an object; null is
 * empty. Anything else is refused rather than guessed at: a number as an id would come back as
 * other text (1.50 as "1.5", a 19-digit id rounded), an object as a name as its JSON.
 */
function jsonFieldText(field: number, value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (field === SUPPLIER_CODES) {
    if (typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
    throw new RowProblem(`supplierCodes must be text or an object, not ${jsonKind(value)}`);
  }
  if (NUMERIC_FIELDS.has(field)) {
    if (typeof value === 'number') return decimalText(value);
    throw new RowProblem(`${FIELDS[field]} must be a number, not ${jsonKind(value)}`);
  }
  throw new RowProblem(`${FIELDS[field]} must be text, not ${jsonKind(value)}${typeof value === 'number' ? ' (put it in quotes)' : ''}`);
}

/** A JSON number as a decimal that parseNumber reads: no exponent (1e-7 as 0.0000001…, 1e21 as its digits). */
function decimalText(value: number): string {
  const text = String(value);
  if (!text.includes('e')) return text;
  return Number.isInteger(value) ? BigInt(value).toString() : value.toFixed(20);
}

/** A JSON object's values by canonical field (see FieldValues); throws RowProblem on a value of the wrong type. */
function valuesOfJsonObject(object: Record<string, unknown>): FieldValues {
  const values = emptyValues();
  for (const [key, value] of Object.entries(object)) {
    const field = fieldOfColumn(key);
    if (field >= 0) offer(values, field, jsonFieldText(field, value));
  }
  return values;
}

/**
 * The longest value each field may hold, in characters: room for every real inventory (the
 * labelled sets' longest name is 77, address 98) and small enough that no row can outgrow a table
 * item or a chunk. A longer value is a broken file (a quote left open, a column shifted).
 */
const MAX_FIELD_LENGTH: Record<Field, number> = {
  id: 200,
  name: 500,
  address: 500,
  city: 200,
  region: 200,
  postalCode: 40,
  country: 100,
  lat: 40,
  lon: 40,
  rating: 40,
  chain: 200,
  supplierCode: 64,
  supplierHotelId: 200,
  supplierCodes: 10_000,
};
const MAX_LENGTH_BY_FIELD = FIELDS.map((field) => MAX_FIELD_LENGTH[field]);

/** The fields that identify a hotel: the API looks them up as sent, so they hold no tab or line break either. */
const IDENTIFIER_FIELDS = new Set([ID, SUPPLIER_HOTEL_ID]);

/**
 * Every value within its length and free of unsafe characters (UNSAFE_TEXT_CHARACTER, a lone
 * surrogate; in an identifier, tab and line breaks too: the rule of the API's ids); throws RowProblem.
 */
function checkValues(values: FieldValues): void {
  for (let field = 0; field < values.length; field++) {
    const value = values[field];
    if (value === undefined) continue;
    if (value.length > MAX_LENGTH_BY_FIELD[field]!) {
      throw new RowProblem(`${FIELDS[field]} is ${value.length} characters long, over the ${MAX_LENGTH_BY_FIELD[field]} allowed`);
    }
    const unsafe = UNSAFE_TEXT_CHARACTER.exec(value) ?? (IDENTIFIER_FIELDS.has(field) ? TAB_OR_LINE_BREAK.exec(value) : null);
    if (unsafe) throw new RowProblem(`${FIELDS[field]} holds the control character ${codePointName(unsafe[0])}`);
    const half = LONE_SURROGATE.exec(value);
    if (half)
      throw new RowProblem(`${FIELDS[field]} holds half of a surrogate pair (${codePointName(half[0])}): it is not valid Unicode text`);
  }
}

/** A decimal number as people write it in files: digits, an optional minus sign, a decimal point or comma. */
const DECIMAL = /^-?(\d+([.,]\d*)?|[.,]\d+)$/;
const INFINITE = /^-?Infinity$/;

function parseNumber(values: FieldValues, field: number, min: number, max: number): number | undefined {
  const text = values[field];
  if (text === undefined) return undefined;
  // Decimal commas ("48,8566") are common in European spreadsheets; hex, exponents and "+" are not numbers people write.
  // A JSON number too large for a double (1e999) arrives as Infinity: a number, out of every range.
  const value = DECIMAL.test(text) ? Number(text.replace(',', '.')) : INFINITE.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(value)) throw new RowProblem(`${FIELDS[field]} "${text}" is not a number`);
  if (value < min || value > max) throw new RowProblem(`${FIELDS[field]} ${value} is outside ${min}..${max}`);
  return value;
}

/** What every inventory's hotel records hold. */
type CommonFields = HotelDescription & { country?: string };

/**
 * The fields every inventory shares, as a new hotel record holding only the defined ones (in this
 * order: records stay compact and compare cleanly); throws RowProblem on a value that cannot be right.
 */
function commonFields(values: FieldValues): CommonFields {
  checkValues(values);
  const id = values[ID];
  const name = values[NAME];
  if (id === undefined) throw new RowProblem('id is missing');
  if (name === undefined) throw new RowProblem('name is missing');
  const lat = parseNumber(values, LAT, -90, 90);
  const lon = parseNumber(values, LON, -180, 180);
  if ((lat === undefined) !== (lon === undefined)) throw new RowProblem('lat and lon must be given together');
  const rating = parseNumber(values, RATING, 0, 5);
  const hotel: CommonFields = { id, name };
  if (values[ADDRESS] !== undefined) hotel.address = values[ADDRESS];
  if (values[CITY] !== undefined) hotel.city = values[CITY];
  if (values[REGION] !== undefined) hotel.region = values[REGION];
  if (values[POSTAL_CODE] !== undefined) hotel.postalCode = values[POSTAL_CODE];
  if (values[COUNTRY] !== undefined) hotel.country = values[COUNTRY];
  if (lat !== undefined) hotel.lat = lat;
  if (lon !== undefined) hotel.lon = lon;
  if (rating !== undefined) hotel.rating = rating;
  return hotel;
}

export interface PartnerInventoryOptions {
  /** Supplier of the inventory, for rows that carry a supplierHotelId but no supplierCode. */
  defaultSupplierCode?: string;
  limits?: TabularLimits;
}

function partnerHotel(values: FieldValues, options: PartnerInventoryOptions): PartnerHotel {
  const hotel: PartnerHotel = commonFields(values);
  const supplierCode = values[SUPPLIER_CODE] ?? (values[SUPPLIER_HOTEL_ID] !== undefined ? options.defaultSupplierCode : undefined);
  if (supplierCode !== undefined) hotel.supplierCode = supplierCode;
  if (values[SUPPLIER_HOTEL_ID] !== undefined) hotel.supplierHotelId = values[SUPPLIER_HOTEL_ID];
  return hotel;
}

/**
 * Supplier codes as "HOTELBEDS:12345;EXPEDIA:998877" (or a JSON object, as a JSON inventory
 * gives it) -> { HOTELBEDS: "12345", EXPEDIA: "998877" }.
 */
export function parseSupplierCodes(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  if (text.startsWith('{')) return parseSupplierCodeObject(text);
  const codes: Record<string, string> = {};
  // Entries are separated by ";" or "|" (text.split(/[;|]/) without the array and the regular
  // expression); an entry's supplier ends at its first ":".
  for (let start = 0, end = 0, separator = -1; end <= text.length; end++) {
    const code = end < text.length ? text.charCodeAt(end) : 59;
    if (code === 58 && separator < 0) separator = end;
    if (code !== 59 && code !== 124) continue;
    const supplier = separator >= 0 ? text.slice(start, separator).trim() : '';
    const hotelId = supplier === '' ? '' : text.slice(separator + 1, end).trim();
    if (hotelId === '') {
      const entry = text.slice(start, end).trim();
      if (entry !== '') throw new RowProblem(`supplierCodes entry "${entry}" is not SUPPLIER:hotelId`);
    } else codes[sharedSupplierName(checkedSupplierName(supplier))] = hotelId;
    start = end + 1;
    separator = -1;
  }
  return codes;
}

/**
 * Supplier names met so far. A reference names a few dozen suppliers over a million rows: keying
 * every row's codes with the one string met first spares a string-table lookup per entry (a fresh
 * key string has to be looked up there each time). At most 64 names of up to 32 characters are
 * kept: a file's odd names cost next to nothing.
 */
const SHARED_SUPPLIER_NAMES: string[] = [];
const MAX_SHARED_SUPPLIER_NAMES = 64;
const MAX_SHARED_SUPPLIER_NAME_LENGTH = 32;

function sharedSupplierName(supplier: string): string {
  for (const name of SHARED_SUPPLIER_NAMES) if (name === supplier) return name;
  if (SHARED_SUPPLIER_NAMES.length < MAX_SHARED_SUPPLIER_NAMES && supplier.length <= MAX_SHARED_SUPPLIER_NAME_LENGTH)
    SHARED_SUPPLIER_NAMES.push(supplier);
  return supplier;
}

/** "__proto__" as a key would set the record's prototype, not add an entry: refused rather than lost. */
function checkedSupplierName(supplier: string): string {
  if (supplier === '__proto__') throw new RowProblem('supplierCodes: "__proto__" cannot be a supplier code');
  return supplier;
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
    codes[checkedSupplierName(supplier)] = String(hotelId);
  }
  return codes;
}

function referenceHotel(values: FieldValues): ReferenceHotel {
  const hotel: Omit<ReferenceHotel, 'supplierCodes'> = commonFields(values);
  const countryCode = toCountryCode(values[COUNTRY]);
  const supplierCodes = parseSupplierCodes(values[SUPPLIER_CODES]);
  if (countryCode !== undefined) hotel.countryCode = countryCode;
  if (values[CHAIN] !== undefined) hotel.chain = values[CHAIN];
  // Last, as records have always listed it.
  return Object.assign(hotel, { supplierCodes });
}

/** The line each id was first seen on (in a JSON array, the element), for "id already used" errors. */
export class InventoryIds {
  private readonly ids = new TextKeyTable();
  private lines = new Float64Array(1024);

  /** The line `id` was first seen on, or undefined. */
  lineOf(id: string): number | undefined {
    const entry = this.ids.entryOf(id);
    return entry >= 0 ? this.lines[entry] : undefined;
  }

  /** Notes `line` as where `id` is first seen, unless it was seen before: then returns that line. */
  claim(id: string, line: number): number | undefined {
    const seen = this.ids.claim(id);
    if (seen >= 0) return this.lines[seen];
    const entry = this.ids.count - 1;
    if (entry + 1 > this.lines.length) this.lines = withRoom(this.lines, entry + 1);
    this.lines[entry] = line;
    return undefined;
  }
}

/** The error of a row whose id an earlier row has. */
function repeatedIdError(line: number, id: string, firstLine: number): InventoryRowError {
  return { line, error: `id "${id}" already used on line ${firstLine}`, repeatedId: { id, firstLine } };
}

/** The error of a JSON array element whose id an earlier element has: many elements may share a line. */
function repeatedIdInArrayError(line: number, element: number, id: string, firstElement: number): InventoryRowError {
  return { line, error: `element ${element}: id "${id}" already used by element ${firstElement}` };
}

/**
 * A row error of a part of a file read with its lines numbered from 1, as a reader of the whole
 * file gives it when the part starts on line `firstLine`: the row's line and the line a repeated
 * id was first seen on (within the part) moved on by the lines before the part.
 */
export function rowErrorInFile(row: InventoryRowError, firstLine: number): InventoryRowError {
  const shift = firstLine - 1;
  if (row.repeatedId) return repeatedIdError(row.line + shift, row.repeatedId.id, row.repeatedId.firstLine + shift);
  return { line: row.line + shift, error: row.error };
}

/**
 * Inventory rows in batches (a chunk of a CSV file each): for large files, where a promise per
 * row costs more than the row. Rows, lines and errors are those of the per-row readers below.
 */
async function* readInventoryBatches<T extends { id: string }>(
  input: TabularInput,
  format: TabularFormat,
  build: (values: FieldValues) => T,
  options: InventoryReadOptions,
): AsyncGenerator<InventoryRow<T>[]> {
  const ids = options.ids ?? new InventoryIds();
  let planHeader: readonly string[] | undefined;
  let plan: Int32Array = new Int32Array(0);
  for await (const rows of readTabularBatches(input, format, options.csvOptions, options.limits)) {
    const batch: InventoryRow<T>[] = [];
    for (const row of rows) {
      if ('error' in row) {
        batch.push(row);
        continue;
      }
      // A JSON array's rows are told apart by their element (many may be on one line), ids claimed by it too.
      const element = 'object' in row ? row.element : undefined;
      let hotel: T;
      try {
        let values: FieldValues;
        if ('cells' in row) {
          if (row.header !== planHeader) {
            planHeader = row.header;
            plan = columnPlan(row.header);
          }
          values = valuesOfCells(plan, row.cells);
        } else if ('object' in row) values = valuesOfJsonObject(row.object);
        else values = valuesOfRecord(row.record);
        hotel = build(values);
      } catch (error) {
        if (!(error instanceof RowProblem)) throw error;
        batch.push({ line: row.line, error: element === undefined ? error.message : `element ${element}: ${error.message}` });
        continue;
      }
      const first = ids.claim(hotel.id, element ?? row.line);
      if (first !== undefined) {
        batch.push(
          element === undefined ? repeatedIdError(row.line, hotel.id, first) : repeatedIdInArrayError(row.line, element, hotel.id, first),
        );
        continue;
      }
      batch.push({ line: row.line, hotel });
    }
    if (batch.length > 0) yield batch;
  }
}

/** The rows of the batches, one by one. */
async function* rowsOfBatches<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/** For reading a large inventory file in parts (see CsvReadOptions; rowErrorInFile for a part's errors). */
export interface InventoryReadOptions {
  csvOptions?: CsvReadOptions;
  limits?: TabularLimits;
  /** Where ids are noted as rows are read (to check another part's ids against them after). */
  ids?: InventoryIds;
}

export function readPartnerInventoryBatches(
  input: TabularInput,
  format: TabularFormat,
  options: PartnerInventoryOptions = {},
): AsyncIterable<InventoryRow<PartnerHotel>[]> {
  return readInventoryBatches(input, format, (values) => partnerHotel(values, options), { limits: options.limits });
}

export function readReferenceInventoryBatches(
  input: TabularInput,
  format: TabularFormat,
  options: InventoryReadOptions = {},
): AsyncIterable<InventoryRow<ReferenceHotel>[]> {
  return readInventoryBatches(input, format, referenceHotel, options);
}

export function readPartnerInventory(
  input: TabularInput,
  format: TabularFormat,
  options: PartnerInventoryOptions = {},
): AsyncIterable<InventoryRow<PartnerHotel>> {
  return rowsOfBatches(readPartnerInventoryBatches(input, format, options));
}

export function readReferenceInventory(input: TabularInput, format: TabularFormat): AsyncIterable<InventoryRow<ReferenceHotel>> {
  return rowsOfBatches(readReferenceInventoryBatches(input, format));
}
