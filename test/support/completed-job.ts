import assert from 'node:assert/strict';
import type { Caller, TestApi } from './test-api';

/** Uploads `csv` as an inventory of `as`, maps it and lets every queued message run: the id of the job, COMPLETED. */
export async function completedJob(
  api: { request: TestApi['request']; messaging: Pick<TestApi['messaging'], 'idle'> },
  as: Caller,
  csv: string,
): Promise<string> {
  const form = new FormData();
  form.append('name', 'test inventory');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
  const inventory = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
  assert.equal(inventory.status, 201, inventory.text);
  const created = await api.request('POST', '/api/v1/mapping', { as, json: { partnerInventoryId: inventory.body.partnerInventoryId } });
  assert.equal(created.status, 201, created.text);
  await api.messaging.idle();
  const job = await api.request('GET', `/api/v1/mapping/${created.body.mappingJobId}`, { as });
  assert.equal(job.body.status, 'COMPLETED', job.text);
  return created.body.mappingJobId;
}
