/**
 * A partner inventory: an organization's hotel file, validated once with the mapping engine's
 * readers and kept as chunk files of valid rows that mapping jobs read.
 *
 * Small files arrive in one multipart call and are validated at once. Any size arrives through a
 * presigned upload: UPLOADING -> (complete) -> VALIDATING -> READY | FAILED, validated by a worker.
 */
import type { TabularFormat } from '../platform/files/formats';
import { defineSettings, type AppConfig } from '../platform/config';

export const INVENTORY_STATUSES = ['UPLOADING', 'VALIDATING', 'READY', 'FAILED'] as const;
export type InventoryStatus = (typeof INVENTORY_STATUSES)[number];

/**
 * Rows per chunk file; a mapping job sends one queue message per chunk, and each chunk pays fixed
 * costs whatever its rows (its files, message, invocation and book reads). An inventory is cut
 * into at least ten chunks (the chunk queue's workers, kept busy) of 2,000 to 10,000 rows: a small
 * inventory is mapped as fast as before, a large one pays a fifth of the fixed costs a row.
 */
export function inventoryChunkRows(hotelCount: number): number {
  return Math.min(CHUNK_ROWS.max, Math.max(CHUNK_ROWS.min, Math.ceil(hotelCount / CHUNK_ROWS.spreadOver)));
}
const CHUNK_ROWS = { min: 2_000, max: 10_000, spreadOver: 10 };

/** The rows of an inventory's chunk, counted from 1 as a partner counts them (after sorting by id). */
export function chunkRowRange(hotelCount: number, chunk: number): { first: number; last: number } {
  const rows = inventoryChunkRows(hotelCount);
  return { first: chunk * rows + 1, last: Math.min(hotelCount, (chunk + 1) * rows) };
}
/** Rejected rows shown in the inventory itself; all of them are in the downloadable file. */
export const REJECTED_SAMPLE_SIZE = 20;
/** Files sent in one multipart call (API Gateway hands Lambda at most 6 MB, base64-encoded). */
export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Files uploaded through a presigned URL. */
export const PRESIGNED_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;

/** What the deployment may set of uploads: the presigned limit, lowered by tests so no 200 MB body is needed to pass it. */
export const UPLOAD_SETTINGS = defineSettings({ presignedMaxBytes: 'PRESIGNED_UPLOAD_MAX_BYTES' });

/** The bytes a presigned upload may hold here: PRESIGNED_UPLOAD_MAX_BYTES unless the configuration lowers it. */
export function presignedUploadMaxBytes(config: Pick<AppConfig, 'variables'>): number {
  const setting = UPLOAD_SETTINGS.read(config).presignedMaxBytes;
  if (setting === undefined) return PRESIGNED_UPLOAD_MAX_BYTES;
  if (!/^\d+$/.test(setting) || Number(setting) > PRESIGNED_UPLOAD_MAX_BYTES) {
    throw new Error(
      `${UPLOAD_SETTINGS.variables.presignedMaxBytes} must be a whole number of bytes up to ${PRESIGNED_UPLOAD_MAX_BYTES}, not "${setting}".`,
    );
  }
  return Number(setting);
}
/** How long a presigned upload URL works. */
export const UPLOAD_URL_SECONDS = 3600;

export interface RejectedRow {
  line: number;
  reason: string;
}

export interface PartnerInventory {
  id: string;
  organizationId: string;
  name: string;
  /** The supplier whose hotel ids the rows carry (ID_TO_ID and HYBRID mapping). */
  supplierCode?: string;
  status: InventoryStatus;
  fileName: string;
  format: TabularFormat;
  sizeBytes?: number;
  /** Valid rows. */
  hotelCount: number;
  rejectedCount: number;
  rejectedSample: RejectedRow[];
  chunkCount: number;
  /** Why validation failed (FAILED only). */
  error?: string;
  createdAt: string;
  updatedAt: string;
}

const MEDIA_TYPES: Record<TabularFormat, string> = {
  csv: 'text/csv',
  jsonl: 'application/x-ndjson',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
};

export function mediaTypeOf(format: TabularFormat): string {
  return MEDIA_TYPES[format];
}

/**
 * Where partners' inventory files live in the files bucket: the validated rows (gzip-compressed
 * JSON lines, a chunk a file), the rejected rows, and a source file only while it is validated:
 * the rows are what jobs read, and what the stage's backups keep.
 */
export const INVENTORY_FILES_PREFIX = 'partner-inventories/';

/**
 * Where a presigned upload lands, in the results bucket (ResourceAccess.resultObjects: outside the
 * stage's backups), until its completion checks its size and copies it to the inventory's source
 * in the files bucket. The results bucket expires what is left here after UPLOAD_STAGING_DAYS.
 */
export const INVENTORY_UPLOADS_PREFIX = 'partner-inventory-uploads/';
/** Days an upload waits here for its completion (S3 expires objects by day, at the next midnight UTC). */
export const UPLOAD_STAGING_DAYS = 1;

/** Where an inventory's files live in the bucket. */
export const inventoryObjects = {
  upload: (inventory: Pick<PartnerInventory, 'organizationId' | 'id' | 'format'>) =>
    `${INVENTORY_UPLOADS_PREFIX}${inventory.organizationId}/${inventory.id}/source.${inventory.format}`,
  source: (inventory: Pick<PartnerInventory, 'organizationId' | 'id' | 'format'>) =>
    `${INVENTORY_FILES_PREFIX}${inventory.organizationId}/${inventory.id}/source.${inventory.format}`,
  chunk: (inventory: Pick<PartnerInventory, 'organizationId' | 'id'>, index: number) =>
    `${INVENTORY_FILES_PREFIX}${inventory.organizationId}/${inventory.id}/rows/${String(index).padStart(5, '0')}.jsonl.br`,
  /** A chunk of an inventory validated before chunks were Brotli-compressed. */
  gzipChunk: (inventory: Pick<PartnerInventory, 'organizationId' | 'id'>, index: number) =>
    `${INVENTORY_FILES_PREFIX}${inventory.organizationId}/${inventory.id}/rows/${String(index).padStart(5, '0')}.jsonl.gz`,
  rejected: (inventory: Pick<PartnerInventory, 'organizationId' | 'id'>) =>
    `${INVENTORY_FILES_PREFIX}${inventory.organizationId}/${inventory.id}/rejected-rows.csv`,
};

/** Every object an inventory may have written in the files bucket (its upload waits in the results bucket). */
export function inventoryObjectKeys(inventory: PartnerInventory): string[] {
  return [
    inventoryObjects.source(inventory),
    inventoryObjects.rejected(inventory),
    ...Array.from({ length: inventory.chunkCount }, (_, index) => [
      inventoryObjects.chunk(inventory, index),
      inventoryObjects.gzipChunk(inventory, index),
    ]).flat(),
  ];
}
