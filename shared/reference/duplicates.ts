/**
 * Duplicate reports: partners report that one reference hotel duplicates another; back-office
 * staff merge or reject. A merge records which hotel it was merged into and asks for a new
 * publication without the duplicate (made by the reference-publication worker); every resolution emits INVENTORY_DUPLICATE_RESOLVED to the
 * reporting organization.
 */
import type { PartnerEvent } from '../events';
import { conflict, invalidInput, notFound } from '../platform/errors';
import type { DuplicateDecision, DuplicateReport, MergeRecord } from './inventory';
import type { HotelRecords } from './hotel-records';
import type { ReferencePublicationPorts } from './publication';

export interface DuplicatePorts extends ReferencePublicationPorts {
  store: ReferencePublicationPorts['store'] & {
    getMerge(duplicateHotelId: string): Promise<MergeRecord | undefined>;
    createReport(report: DuplicateReport): Promise<void>;
    getReport(reportId: string): Promise<DuplicateReport | undefined>;
    resolveReport(report: DuplicateReport, merge: MergeRecord | undefined, event: PartnerEvent): Promise<boolean>;
  };
  /** The records of the current data version, merged duplicates included. */
  hotels: Pick<HotelRecords, 'get'>;
  /** Asks for a publication without the merged hotels (the reference-publication worker makes it). */
  requestRepublication(reportId: string): Promise<void>;
}

export async function reportDuplicate(
  ports: DuplicatePorts,
  input: { organizationId: string; originalHotelId: string; duplicateHotelId: string; duplicateSourceId?: string; reason?: string },
): Promise<DuplicateReport> {
  if (input.originalHotelId === input.duplicateHotelId) {
    throw invalidInput('originalHotelId and duplicateHotelId must be two different hotels.');
  }
  const current = await ports.store.getCurrent();
  const hotelIds = [input.originalHotelId, input.duplicateHotelId];
  const found = current ? await Promise.all(hotelIds.map((id) => ports.hotels.get(id, current))) : [];
  const missing = hotelIds.find((_, index) => !found[index]);
  if (missing) throw notFound(`No reference hotel has the id ${missing}.`);
  const report: DuplicateReport = {
    reportId: ports.newId(),
    organizationId: input.organizationId,
    originalHotelId: input.originalHotelId,
    duplicateHotelId: input.duplicateHotelId,
    duplicateSourceId: input.duplicateSourceId,
    reason: input.reason,
    status: 'PENDING',
    submittedAt: ports.clock.now().toISOString(),
  };
  await ports.store.createReport(report);
  return report;
}

export async function resolveDuplicate(
  ports: DuplicatePorts,
  input: { reportId: string; decision: DuplicateDecision; note?: string; resolvedBy: string },
): Promise<DuplicateReport> {
  const report = await ports.store.getReport(input.reportId);
  if (!report) throw notFound(`No duplicate report has the id ${input.reportId}.`);
  if (report.status !== 'PENDING') throw alreadyResolved(report);
  const now = ports.clock.now().toISOString();
  const resolved: DuplicateReport = {
    ...report,
    status: input.decision === 'MERGE' ? 'MERGED' : 'REJECTED',
    resolution: { decision: input.decision, note: input.note, resolvedAt: now, resolvedBy: input.resolvedBy },
  };
  const merge = input.decision === 'MERGE' ? await mergeRecord(ports, report, now) : undefined;
  const event: PartnerEvent = {
    id: ports.newId(),
    type: 'INVENTORY_DUPLICATE_RESOLVED',
    organizationId: report.organizationId,
    occurredAt: now,
    data: {
      reportId: report.reportId,
      decision: input.decision,
      originalHotelId: report.originalHotelId,
      duplicateHotelId: report.duplicateHotelId,
      ...(merge && { mergedInto: merge.mergedInto }),
    },
  };
  // The resolution, its merge and its event in one transaction (the outbox).
  if (!(await ports.store.resolveReport(resolved, merge, event))) {
    // Another resolution won the race: name the state it left.
    throw alreadyResolved((await ports.store.getReport(report.reportId)) ?? report);
  }
  // The merge is recorded: the worker's next publication leaves out every merge recorded so far,
  // so parallel merges all succeed and none goes missing.
  if (merge) await ports.requestRepublication(report.reportId);
  return resolved;
}

/** Merges into the hotel that survives: if the original was itself merged, into what it became. */
async function mergeRecord(ports: DuplicatePorts, report: DuplicateReport, mergedAt: string): Promise<MergeRecord> {
  if (await ports.store.getMerge(report.duplicateHotelId)) {
    throw conflict(`The hotel ${report.duplicateHotelId} has already been merged as a duplicate.`);
  }
  let mergedInto = report.originalHotelId;
  for (const seen = new Set<string>(); ;) {
    const next = await ports.store.getMerge(mergedInto);
    if (!next || seen.has(next.mergedInto)) break;
    seen.add(mergedInto);
    mergedInto = next.mergedInto;
  }
  if (mergedInto === report.duplicateHotelId) throw conflict('The original hotel was itself merged into the duplicate.');
  return { duplicateHotelId: report.duplicateHotelId, mergedInto, reportId: report.reportId, mergedAt };
}

function alreadyResolved(report: DuplicateReport) {
  return conflict(`The report ${report.reportId} is already resolved (${report.status}).`);
}

/** What partners see of a report: not who in the back office resolved it. */
export function duplicateReportView(report: DuplicateReport) {
  return {
    reportId: report.reportId,
    status: report.status,
    originalHotelId: report.originalHotelId,
    duplicateHotelId: report.duplicateHotelId,
    duplicateSourceId: report.duplicateSourceId,
    reason: report.reason,
    submittedAt: report.submittedAt,
    resolution: report.resolution && {
      decision: report.resolution.decision,
      note: report.resolution.note,
      resolvedAt: report.resolution.resolvedAt,
    },
  };
}
