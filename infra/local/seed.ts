/**
 * Demo data for `npm start`: the supplier catalogue, a generated reference inventory, a demo
 * organization on the SUBSCRIPTION plan with a partner key, a back-office organization with an admin
 * key, and the review demo's job.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOrganizationKey } from '../../shared/api-keys';
import { createOrganization } from '../../shared/organizations';
import type { Runtime } from '../../shared/platform/runtime';
import { importReferenceInventory, referencePortsOf, referenceStoreOf } from '../../shared/reference';
import { supplierStoreOf, type Supplier } from '../../shared/suppliers';
import { generateReferenceHotels } from '../synthetic/generator';

/** 14 suppliers, 13 of them active: more than any non-enterprise plan may connect. */
export const SUPPLIER_CATALOGUE: readonly Supplier[] = [
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001', 'HOTELBEDS', 'Hotelbeds', 'Global bed bank with direct contracts in 170 countries'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002', 'EXPEDIA', 'Expedia Partner Solutions', 'Rapid API inventory of hotels and vacation rentals'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0003', 'BOOKING', 'Booking.com Affiliate', 'Demand API of Booking.com properties'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0004', 'AGODA', 'Agoda', 'Asia-Pacific focused hotel distribution'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0005', 'WEBBEDS', 'WebBeds', 'B2B accommodation marketplace'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0006', 'TRAVELGATE', 'TravelgateX', 'Switch connecting buyers and sellers of hotel content'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0007', 'DERBYSOFT', 'DerbySoft', 'Direct connectivity to hotel chains'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0008', 'TBO', 'TBO Holidays', 'Wholesale travel distribution platform'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0009', 'HOTELSPRO', 'HotelsPro', 'Wholesale hotel inventory with global coverage'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0010', 'RESTEL', 'Restel', 'Spanish and Mediterranean hotel wholesaler'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0011', 'JUNIPER', 'Juniper', 'Booking engine and hotel aggregation'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0012', 'SABRE', 'Sabre Hotels', 'GDS hotel content'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0013', 'AMADEUS', 'Amadeus Hotels', 'GDS hotel content and rates'],
  ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0014', 'GTA', 'GTA Travel', 'Legacy wholesaler, no longer taking new connections', false],
].map(([id, code, name, description, isActive = true]) => ({
  id: id as string,
  code: code as string,
  name: name as string,
  description: description as string,
  logoUrl: `https://static.hotel-mapping.example/suppliers/${(code as string).toLowerCase()}.svg`,
  isActive: isActive as boolean,
}));

export interface DemoCredentials {
  organizationId: string;
  apiKey: string;
  adminApiKey: string;
}

export async function seedSuppliers(runtime: Runtime): Promise<void> {
  const suppliers = supplierStoreOf(runtime);
  for (const supplier of SUPPLIER_CATALOGUE) await suppliers.putSupplier(supplier);
}

export async function seedDemoOrganizations(runtime: Runtime): Promise<DemoCredentials> {
  // SUBSCRIPTION: a day's allowance (100,000) maps the review demo's 4,000 rows and more.
  const demo = await createOrganization(runtime, { name: 'Demo Travel', planType: 'SUBSCRIPTION' });
  const backOffice = await createOrganization(runtime, { name: 'Platform back office', planType: 'ENTERPRISE' });
  const partnerKey = await createOrganizationKey(runtime, { organizationId: demo.id, name: 'demo key', role: 'partner' });
  const adminKey = await createOrganizationKey(runtime, { organizationId: backOffice.id, name: 'back-office admin key', role: 'admin' });
  return { organizationId: demo.id, apiKey: partnerKey.plaintext, adminApiKey: adminKey.plaintext };
}

export const DEMO_REFERENCE = { hotels: 20_000, seed: 2026 } as const;

/** The demo inventory whose job leaves a review queue: about 250 of its rows in REVIEW (infra/synthetic/review-queue.ts). */
export const REVIEW_DEMO = { file: fileURLToPath(new URL('./demo/review-queue.csv', import.meta.url)), rows: 4_000, seed: 7 } as const;

/** The suppliers the demo organization connects to: its answers show the hotels' codes there. */
const DEMO_SUPPLIERS = ['HOTELBEDS', 'EXPEDIA'];

/**
 * Maps the review demo through the API itself, as a partner would (connects two suppliers, uploads,
 * then a job; `partial`, so it ends no entry of the book): its job leaves the console a queue to work.
 */
export async function mapReviewDemo(baseUrl: string, apiKey: string): Promise<void> {
  for (const { id } of SUPPLIER_CATALOGUE.filter((supplier) => DEMO_SUPPLIERS.includes(supplier.code))) {
    const connected = await fetch(`${baseUrl}/api/v1/suppliers/${id}/connect`, { method: 'POST', headers: { 'x-api-key': apiKey } });
    if (!connected.ok) throw new Error(`connecting the demo to a supplier answered ${connected.status}: ${await connected.text()}`);
  }
  const form = new FormData();
  form.append('name', 'Review demo hotels');
  form.append('file', new Blob([readFileSync(REVIEW_DEMO.file)], { type: 'text/csv' }), 'review-queue.csv');
  const headers = { 'x-api-key': apiKey };
  const inventory = await fetch(`${baseUrl}/api/v1/partner-inventories`, { method: 'POST', headers, body: form });
  if (!inventory.ok) throw new Error(`the review demo's upload answered ${inventory.status}: ${await inventory.text()}`);
  const { partnerInventoryId } = (await inventory.json()) as { partnerInventoryId: string };
  const job = await fetch(`${baseUrl}/api/v1/mapping`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ partnerInventoryId, partial: true }),
  });
  if (!job.ok) throw new Error(`the review demo's job answered ${job.status}: ${await job.text()}`);
}

/** Publishes a generated reference inventory when none exists yet. */
export async function seedReferenceInventory(
  runtime: Runtime,
  size: { hotels: number; seed: number } = DEMO_REFERENCE,
): Promise<{ seeded: boolean; hotelCount: number; seconds: number }> {
  const startedAt = Date.now();
  const current = await referenceStoreOf(runtime).getCurrent();
  if (current) return { seeded: false, hotelCount: current.hotelCount, seconds: 0 };
  async function* rows() {
    let line = 1;
    for (const hotel of generateReferenceHotels({ count: size.hotels, seed: size.seed })) yield { line: ++line, hotel };
  }
  const summary = await importReferenceInventory(referencePortsOf(runtime), rows(), `generated (${size.hotels} hotels, seed ${size.seed})`);
  return { seeded: true, hotelCount: summary.hotelCount, seconds: (Date.now() - startedAt) / 1000 };
}
