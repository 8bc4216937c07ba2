/** The reference-publication worker: one publication for every merge recorded before it. */
import type { Runtime } from '../platform/runtime';
import { republishWithoutMerged } from './publication';
import type { RepublicationMessage } from './queue';
import { referencePortsOf } from './services';

export async function republishAfterMerge(_message: RepublicationMessage, runtime: Runtime): Promise<void> {
  // A publication that finished first makes this one fail its condition: the queue delivers the
  // message again, and the next attempt publishes on top of it (or finds nothing left to do).
  await republishWithoutMerged(referencePortsOf(runtime));
}
