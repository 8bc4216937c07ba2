/** The partner inventory endpoints: direct and presigned uploads, listing, reading and deleting. */
import { randomUUID } from 'node:crypto';
import { conflict, invalidInput, notFound, unsupportedFormat } from '../platform/errors';
import { detectTabularFormat } from '../platform/files/formats';
import type { Implementation } from '../platform/http/endpoint';
import { HttpError } from '../platform/http/errors';
import { objectStoreOf, resultObjectStoreOf } from '../platform/objects/services';
import { MAX_QUEUE_DELAY_SECONDS } from '../platform/queue/queue';
import { queueOf } from '../platform/queue/services';
import type { Runtime } from '../platform/runtime';
import {
  inventoryObjectKeys,
  inventoryObjects,
  mediaTypeOf,
  presignedUploadMaxBytes,
  UPLOAD_URL_SECONDS,
  type PartnerInventory,
} from './inventory';
import { inventoryValidationQueue } from './queue';
import { partnerInventoryRoutes } from './routes';
import { inventoryStoreOf } from './store';
import { readInventoryFile, writeValidatedRows } from './validation';
import { inventoryView } from './views';

const DOWNLOAD_URL_SECONDS = 3600;

export const uploadPartnerInventory: Implementation<typeof partnerInventoryRoutes.uploadPartnerInventory> = async (
  { principal, body },
  runtime,
) => {
  const { file } = body;
  const fields = { ...body, fileName: file.fileName, mediaType: file.contentType };
  const inventory: PartnerInventory = {
    ...newInventory(runtime, principal.organizationId, fields, 'VALIDATING'),
    sizeBytes: file.data.length,
  };
  // Read everything before writing anything: a refused file leaves no trace.
  const rows = await readInventoryFile(inventory, file.data);
  // The record comes before its files, so no file is kept that no inventory points to. Should this
  // request be cut off while writing them, the delayed message finishes the inventory from its
  // source file (READY) or fails it, as it does a presigned upload; otherwise it finds it READY.
  const store = inventoryStoreOf(runtime);
  await store.create(inventory);
  await queueOf(runtime, inventoryValidationQueue).send(
    { organizationId: inventory.organizationId, partnerInventoryId: inventory.id },
    { delaySeconds: MAX_QUEUE_DELAY_SECONDS },
  );
  const objects = objectStoreOf(runtime);
  await objects.put(inventoryObjects.source(inventory), file.data, mediaTypeOf(inventory.format));
  const ready: PartnerInventory = {
    ...inventory,
    ...(await writeValidatedRows(objects, inventory, rows)),
    status: 'READY',
    updatedAt: runtime.clock.now().toISOString(),
  };
  await store.transition(inventory, 'VALIDATING', ready);
  await objects.delete([inventoryObjects.source(inventory)]);
  return { status: 201, json: await viewWithLinks(runtime, ready) };
};

export const createPartnerInventoryUpload: Implementation<typeof partnerInventoryRoutes.createPartnerInventoryUpload> = async (
  { principal, body },
  runtime,
) => {
  const { sizeBytes, ...fields } = body;
  const maxBytes = presignedUploadMaxBytes(runtime.config);
  if (sizeBytes > maxBytes) {
    throw new HttpError(413, `The file has ${sizeBytes} bytes; the limit is ${maxBytes}. Split it into several inventories.`);
  }
  const inventory: PartnerInventory = { ...newInventory(runtime, principal.organizationId, fields, 'UPLOADING'), sizeBytes };
  const contentType = mediaTypeOf(inventory.format);
  const url = await resultObjectStoreOf(runtime).presignedUploadUrl(
    inventoryObjects.upload(inventory),
    { contentType, sizeBytes },
    UPLOAD_URL_SECONDS,
  );
  await inventoryStoreOf(runtime).create(inventory);
  return {
    status: 201,
    json: {
      ...inventoryView(inventory),
      upload: {
        url,
        method: 'PUT',
        headers: { 'Content-Type': contentType, 'Content-Length': String(sizeBytes) },
        expiresAt: new Date(runtime.clock.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
      },
    },
  };
};

export const completePartnerInventoryUpload: Implementation<typeof partnerInventoryRoutes.completePartnerInventoryUpload> = async (
  { principal, params },
  runtime,
) => {
  const store = inventoryStoreOf(runtime);
  const inventory = await requireInventory(runtime, principal.organizationId, params.partnerInventoryId);
  if (inventory.status !== 'UPLOADING') throw conflict(`The upload of this inventory was already completed (${inventory.status}).`);
  const uploads = resultObjectStoreOf(runtime);
  const upload = inventoryObjects.upload(inventory);
  const sizeBytes = await uploads.size(upload);
  if (sizeBytes === undefined) throw invalidInput('No file has been uploaded yet: PUT it to the upload URL first.');
  // S3 refuses a PUT of another length than the signed one; this holds wherever a store does not.
  if (sizeBytes !== inventory.sizeBytes) {
    await uploads.delete([upload]);
    throw invalidInput(
      `The uploaded file has ${sizeBytes} bytes, not the ${inventory.sizeBytes} declared. It was removed: start a new upload with the file's size.`,
    );
  }
  // Copied before the inventory says VALIDATING, so its worker always finds the source; a
  // completion cut off before the transition leaves the upload in place, and is simply called again.
  await objectStoreOf(runtime).copy(upload, inventoryObjects.source(inventory), uploads);
  const validating = { ...inventory, status: 'VALIDATING' as const, updatedAt: runtime.clock.now().toISOString() };
  if (!(await store.transition(inventory, 'UPLOADING', validating))) {
    throw conflict('The upload of this inventory was already completed.');
  }
  await uploads.delete([upload]);
  await queueOf(runtime, inventoryValidationQueue).send({ organizationId: inventory.organizationId, partnerInventoryId: inventory.id });
  return { status: 202, json: inventoryView(validating) };
};

export const listPartnerInventories: Implementation<typeof partnerInventoryRoutes.listPartnerInventories> = async (
  { principal, query },
  runtime,
) => {
  const page = await inventoryStoreOf(runtime).list(principal.organizationId, query.limit ?? 20, query.cursor);
  return { status: 200, json: { inventories: page.items.map((inventory) => inventoryView(inventory)), nextCursor: page.nextCursor } };
};

export const getPartnerInventory: Implementation<typeof partnerInventoryRoutes.getPartnerInventory> = async (
  { principal, params },
  runtime,
) => {
  const inventory = await requireInventory(runtime, principal.organizationId, params.partnerInventoryId);
  return { status: 200, json: await viewWithLinks(runtime, inventory) };
};

export const deletePartnerInventory: Implementation<typeof partnerInventoryRoutes.deletePartnerInventory> = async (
  { principal, params },
  runtime,
) => {
  const inventory = await requireInventory(runtime, principal.organizationId, params.partnerInventoryId);
  // Files first: a request cut off between the two leaves the record, which the partner deletes again.
  await Promise.all([
    objectStoreOf(runtime).delete(inventoryObjectKeys(inventory)),
    resultObjectStoreOf(runtime).delete([inventoryObjects.upload(inventory)]),
  ]);
  await inventoryStoreOf(runtime).delete(inventory.organizationId, inventory.id);
  return { status: 204 };
};

function newInventory(
  runtime: Runtime,
  organizationId: string,
  input: { name: string; fileName: string; supplierCode?: string; mediaType?: string },
  status: 'VALIDATING' | 'UPLOADING',
): PartnerInventory {
  const format = detectTabularFormat(input.fileName, input.mediaType);
  if (!format) {
    const byType = input.mediaType !== undefined && !input.fileName.includes('.');
    throw unsupportedFormat(
      `${input.fileName || 'The file'} is not a .csv, .txt, .jsonl, .ndjson, .json, .xlsx or .parquet file` +
        (byType
          ? ", and its part's Content-Type names none of them (text/csv, application/x-ndjson, application/json, the .xlsx type, application/vnd.apache.parquet)."
          : '.'),
    );
  }
  const now = runtime.clock.now().toISOString();
  return {
    id: randomUUID(),
    organizationId,
    name: input.name,
    supplierCode: input.supplierCode,
    status,
    fileName: input.fileName,
    format,
    hotelCount: 0,
    rejectedCount: 0,
    rejectedSample: [],
    chunkCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}

async function requireInventory(runtime: Runtime, organizationId: string, inventoryId: string): Promise<PartnerInventory> {
  const inventory = await inventoryStoreOf(runtime).get(organizationId, inventoryId.toLowerCase());
  if (!inventory) throw notFound(`Your organization has no partner inventory ${inventoryId}.`);
  return inventory;
}

async function viewWithLinks(runtime: Runtime, inventory: PartnerInventory) {
  const rejectedRowsUrl =
    inventory.rejectedCount > 0
      ? await objectStoreOf(runtime).presignedDownloadUrl(inventoryObjects.rejected(inventory), DOWNLOAD_URL_SECONDS)
      : undefined;
  return inventoryView(inventory, rejectedRowsUrl);
}
