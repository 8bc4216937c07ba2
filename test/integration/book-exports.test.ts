/**
 * The book's export through the lifecycle every prepared export has, against DynamoDB Local and
 * s3rver: a claim whose message could not be sent is given up.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startTestApi } from '../support/test-api';
import { OWN_SOURCE } from '../../shared/mapping-book';
import { requestBookExport } from '../../shared/mapping-book/exports';
import { exportPorts } from '../../shared/mapping-book/services';

const api = await startTestApi();

describe("a book's export whose message cannot be sent", () => {
  it('is given up: the request fails, no export is left preparing, and the next request prepares one at once', async () => {
    const { organization } = await api.newOrganization();
    const ports = exportPorts(api.runtime);
    const unreachable = {
      ...ports,
      exports: {
        send: async () => {
          throw new Error('the queue is unreachable');
        },
      },
    };
    await assert.rejects(requestBookExport(unreachable, organization.id, OWN_SOURCE), /the queue is unreachable/);
    assert.equal(await ports.store.bookExport(organization.id, OWN_SOURCE), undefined);

    assert.equal((await requestBookExport(ports, organization.id, OWN_SOURCE)).status, 'PREPARING');
    await api.messaging.idle();
    const ready = await requestBookExport(ports, organization.id, OWN_SOURCE);
    assert.equal(ready.status, 'READY');
    assert.equal(ready.status === 'READY' && ready.rowCount, 0);
  });

  it("a release leaves in place an export another request claimed since, and another organization's", async () => {
    const [{ organization }, { organization: other }] = await Promise.all([api.newOrganization(), api.newOrganization()]);
    const ports = exportPorts(api.runtime);
    await requestBookExport(ports, organization.id, OWN_SOURCE);
    await requestBookExport(ports, other.id, OWN_SOURCE);
    const held = (await ports.store.bookExport(organization.id, OWN_SOURCE))!;
    await ports.store.releaseExport(organization.id, OWN_SOURCE, 'an-earlier-claim');
    assert.deepEqual(await ports.store.bookExport(organization.id, OWN_SOURCE), held);
    await ports.store.releaseExport(organization.id, OWN_SOURCE, held.exportId);
    assert.equal(await ports.store.bookExport(organization.id, OWN_SOURCE), undefined);
    assert.equal((await ports.store.bookExport(other.id, OWN_SOURCE))?.status, 'PREPARING');
  });
});
