/** The workers of the book's queues: a publication told to every book, and each book following it. */
import { matchHotels, referenceFactsIn, type PartnerHotel } from '../mapping';
import { objectStoreOf } from '../platform/objects/services';
import { queueOf } from '../platform/queue/services';
import type { Runtime } from '../platform/runtime';
import { matchingIndexesOf, readReferenceChanges } from '../reference';
import type { EngineAnswer, PartnerFacts } from './entries';
import {
  mappingBookFollowQueue,
  type ExportMessage,
  type FollowQueueMessage,
  type RecordMessage,
  type ReferenceChangeMessage,
} from './queues';
import { recordQueuedRows } from './recording';
import { prepareBookExport } from './exports';
import { exportPorts } from './services';
import { announcePublication, followReference, type FollowPorts } from './reference-follow';
import { bookPorts } from './services';

function partnerHotel(facts: PartnerFacts, index: number): PartnerHotel {
  return {
    id: String(index),
    name: facts.name,
    ...(facts.address !== undefined && { address: facts.address }),
    ...(facts.postalCode !== undefined && { postalCode: facts.postalCode }),
    ...(facts.city !== undefined && { city: facts.city }),
    ...(facts.country !== undefined && { country: facts.country }),
    ...(facts.latitude !== undefined && facts.longitude !== undefined && { lat: facts.latitude, lon: facts.longitude }),
  };
}

function followPorts(runtime: Runtime): FollowPorts {
  return {
    ...bookPorts(runtime),
    referenceChanges: (referenceVersionId) => readReferenceChanges(objectStoreOf(runtime), referenceVersionId),
    // STANDARD: the book keeps the partner's facts, not the supplier codes an ID_TO_ID row had.
    async remap(matchingIndexKey, partners) {
      const index = await matchingIndexesOf(runtime).load(matchingIndexKey);
      return matchHotels(index, partners.map(partnerHotel), { mode: 'STANDARD' }).map(
        ({ status, method, referenceHotelId, referenceHotelName, score, evidence, candidates, reason, ...facts }): EngineAnswer => ({
          status,
          method,
          referenceHotelId,
          referenceHotelName,
          ...referenceFactsIn(facts),
          score,
          evidence,
          candidates,
          ...(reason !== undefined && { reason }),
        }),
      );
    },
  };
}

export function announceReferencePublication(message: ReferenceChangeMessage, runtime: Runtime): Promise<void> {
  return announcePublication({ store: bookPorts(runtime).store, follows: queueOf(runtime, mappingBookFollowQueue) }, message.artifactsId);
}

export function followReferencePublication(message: FollowQueueMessage, runtime: Runtime): Promise<void> {
  return followReference(followPorts(runtime), message);
}

export function prepareMappingBookExport(message: ExportMessage, runtime: Runtime): Promise<void> {
  return prepareBookExport(exportPorts(runtime), message);
}

export function recordFoundMatches(message: RecordMessage, runtime: Runtime): Promise<void> {
  return recordQueuedRows(bookPorts(runtime), message);
}
