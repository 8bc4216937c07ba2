/**
 * Delivery destinations through the HTTP API against real servers: Debian's OpenSSH sftp-server
 * behind an SSH server on a loopback port (password, key, wrong host key, refused writes, a
 * server killed mid-upload), and s3rver as the partner's bucket (S3-compatible, and S3 through
 * the local stand-in of STS). Every delivered file's bytes equal the export's.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { destinationStoreOf } from '../../shared/file-deliveries/store';
import { eventOutboxOf } from '../../shared/platform/events/outbox';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { completedJob } from '../support/completed-job';
import { startSftpServer } from '../support/sftp-server';
import { startTestApi, type Caller } from '../support/test-api';
import { jsonReceiver } from '../support/webhook-receiver';

const MINUTE = 60_000;
const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
await seedReferenceInventory(api.runtime, { hotels: 200, seed: 11 });
const hotels = [...generateReferenceHotels({ count: 200, seed: 11 })];
const sftp = await startSftpServer();
const receiver = await jsonReceiver();
const root = mkdtempSync(join(tmpdir(), 'sftp-deliveries-'));
const partnerBucket = `partner-bucket-${Date.now()}`;
const s3 = new S3Client({
  region: 'us-east-1',
  endpoint: api.config.s3Endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});
await s3.send(new CreateBucketCommand({ Bucket: partnerBucket }));
afterAll(async () => {
  receiver.close();
  await sftp.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh folder on the SFTP server's file system. */
function folder(name: string): string {
  const path = join(root, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(path);
  return path;
}

function sftpDestination(at: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'SFTP',
    name: 'Partner SFTP',
    host: '127.0.0.1',
    port: sftp.port,
    username: sftp.username,
    password: sftp.password,
    hostKeyFingerprint: sftp.hostKeyFingerprint,
    folder: at,
    ...overrides,
  };
}

function s3CompatibleDestination(overrides: Record<string, unknown> = {}) {
  return {
    type: 'S3_COMPATIBLE',
    name: 'Partner store',
    endpoint: api.config.s3Endpoint,
    bucket: partnerBucket,
    prefix: 'mapping',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    ...overrides,
  };
}

async function create(as: Caller, body: Record<string, unknown>) {
  const created = await api.request('POST', '/api/v1/delivery-destinations', { as, json: body });
  assert.equal(created.status, 201, created.text);
  return created.body;
}

const test = (as: Caller, id: string) => api.request('POST', `/api/v1/delivery-destinations/${id}/test`, { as });
const history = async (as: Caller, id: string) =>
  (await api.request('GET', `/api/v1/delivery-destinations/${id}/deliveries`, { as })).body.deliveries;

/** A completed job of `rows` hotels. */
function jobOf(as: Caller, rows: number, offset = 0): Promise<string> {
  const csv = [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon'])];
  for (const [i, hotel] of hotels.slice(offset, offset + rows).entries())
    csv.push(formatCsvRow([`P${offset + i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]));
  return completedJob(api, as, csv.join('\n'));
}

/** The MAPPING_COMPLETED body the receiver got for a job. */
function completionOf(jobId: string) {
  const event = receiver.received.find((body) => body.type === 'MAPPING_COMPLETED' && body.data.mappingJobId === jobId);
  assert.ok(event, `no MAPPING_COMPLETED for ${jobId}`);
  return event;
}

async function partnerObject(key: string): Promise<Buffer> {
  const object = await s3.send(new GetObjectCommand({ Bucket: partnerBucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

describe('delivery destinations', () => {
  it('registers each kind, shows no credential, issues an external id and the policies to paste for S3', async () => {
    const partner = await api.newOrganization();
    const viaSftp = await create(partner, sftpDestination('/incoming'));
    assert.equal(viaSftp.status, 'ACTIVE');
    assert.deepEqual(viaSftp.sftp, {
      host: '127.0.0.1',
      port: sftp.port,
      username: sftp.username,
      authentication: 'PASSWORD',
      hostKeyFingerprint: sftp.hostKeyFingerprint,
      folder: '/incoming',
    });
    assert.ok(!JSON.stringify(viaSftp).includes(sftp.password));

    const viaKey = await create(partner, sftpDestination('/incoming', { password: undefined, privateKey: sftp.clientPrivateKey }));
    assert.equal(viaKey.sftp.authentication, 'PRIVATE_KEY');
    assert.ok(!JSON.stringify(viaKey).includes('PRIVATE KEY'));

    const store = await create(partner, s3CompatibleDestination());
    assert.equal(store.s3Compatible.prefix, 'mapping/');
    assert.ok(!JSON.stringify(store).includes('"secretAccessKey"'));

    const bucket = await create(partner, {
      type: 'S3',
      name: 'Our bucket',
      bucket: 'partner-exports',
      region: 'eu-west-1',
      roleArn: 'arn:aws:iam::123456789012:role/hotel-mapping-delivery',
    });
    assert.match(bucket.s3.externalId, /^[0-9a-f-]{36}$/);
    const trust = bucket.s3.setup.trustPolicy.Statement[0];
    assert.equal(trust.Condition.StringEquals['sts:ExternalId'], bucket.s3.externalId);
    assert.match(trust.Principal.AWS, /^arn:aws:iam::\d{12}:root$/);
    assert.deepEqual(bucket.s3.setup.permissionPolicy.Statement[0].Action, ['s3:PutObject', 's3:DeleteObject']);
    assert.equal(bucket.s3.setup.permissionPolicy.Statement[0].Resource, 'arn:aws:s3:::partner-exports/*');

    const listed = await api.request('GET', '/api/v1/delivery-destinations', { as: partner });
    assert.equal(listed.body.total, 4);
    assert.deepEqual(
      new Set(listed.body.destinations.map((destination: { id: string }) => destination.id)),
      new Set([viaSftp.id, viaKey.id, store.id, bucket.id]),
    );
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const partner = await api.newOrganization();
    const refused: [Record<string, unknown>, RegExp][] = [
      [sftpDestination('/in', { host: '10.0.0.5' }), /private address/],
      [sftpDestination('/in', { host: '169.254.169.254' }), /link-local/],
      [sftpDestination('/in', { host: 'no such host!' }), /not a valid host name/],
      [sftpDestination('/in', { hostKeyFingerprint: 'MD5:aa:bb' }), /fingerprint/],
      [sftpDestination('/in', { password: undefined }), /password or a privateKey/],
      [sftpDestination('/in', { privateKey: sftp.clientPrivateKey }), /not both/],
      [sftpDestination('/in', { password: undefined, privateKey: 'not a key' }), /privateKey/],
      [sftpDestination('relative/folder'), /absolute/],
      [s3CompatibleDestination({ endpoint: 'ftp://store.example' }), /https/],
      [s3CompatibleDestination({ endpoint: 'https://10.1.2.3' }), /private address/],
      [{ type: 'S3', name: 'x', bucket: 'Not_A_Bucket', region: 'eu-west-1', roleArn: 'arn:aws:iam::123456789012:role/r' }, /bucket name/],
      [{ type: 'S3', name: 'x', bucket: 'good-bucket', region: 'eu-west-1', roleArn: 'not-an-arn' }, /role ARN/],
      [{ type: 'FTP', name: 'x' }, /type/],
    ];
    for (const [body, message] of refused) {
      const answer = await api.request('POST', '/api/v1/delivery-destinations', { as: partner, json: body });
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.equal(answer.body.error, 'Bad Request');
      assert.match(answer.body.message, message);
    }
    assert.equal((await api.request('GET', '/api/v1/delivery-destinations', { as: partner })).body.total, 0);
  });

  it("keeps each organization's destinations its own", async () => {
    const owner = await api.newOrganization();
    const other = await api.newOrganization();
    const destination = await create(owner, sftpDestination(folder('own')));
    for (const [method, path, json] of [
      ['GET', `/api/v1/delivery-destinations/${destination.id}`, undefined],
      ['PATCH', `/api/v1/delivery-destinations/${destination.id}`, { status: 'INACTIVE' }],
      ['POST', `/api/v1/delivery-destinations/${destination.id}/test`, undefined],
      ['GET', `/api/v1/delivery-destinations/${destination.id}/deliveries`, undefined],
      ['DELETE', `/api/v1/delivery-destinations/${destination.id}`, undefined],
    ] as const) {
      const answer = await api.request(method, path, { as: other, ...(json && { json }) });
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
    }
    assert.equal((await api.request('GET', '/api/v1/delivery-destinations', { as: other })).body.total, 0);
    assert.equal((await api.request('GET', `/api/v1/delivery-destinations/${destination.id}`, { as: owner })).body.status, 'ACTIVE');
  });

  it('tests a destination by writing a small file and removing it, and says why a test fails', async () => {
    const partner = await api.newOrganization();
    const cases: [Record<string, unknown>, string | null][] = [
      [sftpDestination(folder('password')), null],
      [sftpDestination(folder('key'), { password: undefined, privateKey: sftp.clientPrivateKey }), null],
      [sftpDestination(folder('wrong-key'), { hostKeyFingerprint: `SHA256:${'A'.repeat(43)}` }), 'HOST_KEY_CHANGED'],
      [sftpDestination(folder('wrong-password'), { password: 'not the password' }), 'AUTH_REFUSED'],
      [sftpDestination(join(root, 'no-such-folder')), 'NOT_FOUND'],
      [sftpDestination(folder('closed'), { port: 1 }), 'CONNECTION_FAILED'],
      [s3CompatibleDestination(), null],
      [s3CompatibleDestination({ bucket: 'no-such-partner-bucket' }), 'NOT_FOUND'],
      [s3CompatibleDestination({ accessKeyId: 'NOT-A-KEY' }), 'AUTH_REFUSED'],
      [{ type: 'S3', name: 'Role', bucket: partnerBucket, region: 'eu-west-1', roleArn: 'arn:aws:iam::123456789012:role/delivery' }, null],
    ];
    for (const [body, reasonCode] of cases) {
      const destination = await create(partner, body);
      const answer = await test(partner, destination.id);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.reasonCode, reasonCode, `${JSON.stringify(body)}: ${answer.body.message}`);
      assert.equal(answer.body.succeeded, reasonCode === null);
      assert.match(answer.body.fileName, /^hotel-mapping-connection-test-\d+\.txt$/);
      if (body.type === 'SFTP' && reasonCode === null)
        assert.deepEqual([...readdirSync(body.folder as string)], [], 'the test file is removed');
      // Deleted again: an organization holds at most ten.
      assert.equal((await api.request('DELETE', `/api/v1/delivery-destinations/${destination.id}`, { as: partner })).status, 204);
    }
    // A refused write, as a full disk or a quota refuses it; after the ten tests a minute allows.
    sftp.readOnly = true;
    try {
      const destination = await create(partner, sftpDestination(folder('read-only')));
      const limited = await test(partner, destination.id);
      assert.equal(limited.status, 400, limited.text);
      assert.match(limited.body.message, /At most 10 destination tests per minute/);
      api.clock.advance(MINUTE);
      const answer = await test(partner, destination.id);
      assert.equal(answer.body.reasonCode, 'ACCESS_DENIED', answer.body.message);
    } finally {
      sftp.readOnly = false;
    }
  });

  it("delivers a completed job's export to each active destination, and tells it with the file's link in MAPPING_COMPLETED", async () => {
    const partner = await api.newOrganization();
    const at = folder('delivered');
    const viaSftp = await create(partner, sftpDestination(at));
    const byKey = folder('by-key');
    const viaKey = await create(partner, sftpDestination(byKey, { password: undefined, privateKey: sftp.clientPrivateKey }));
    const store = await create(partner, s3CompatibleDestination());
    const viaRole = await create(partner, {
      type: 'S3',
      name: 'Role',
      bucket: partnerBucket,
      region: 'eu-west-1',
      prefix: 'role',
      roleArn: 'arn:aws:iam::123456789012:role/delivery',
    });
    const paused = await create(partner, sftpDestination(folder('paused')));
    await api.request('PATCH', `/api/v1/delivery-destinations/${paused.id}`, { as: partner, json: { status: 'INACTIVE' } });
    const subscribed = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/completed'), events: ['MAPPING_COMPLETED'] },
    });
    assert.equal(subscribed.status, 201, subscribed.text);

    const jobId = await jobOf(partner, 40);
    const told = completionOf(jobId);
    const fileName = `mapping-${jobId}.csv`;
    assert.equal(told.data.export.fileName, fileName);
    assert.equal(told.data.export.rowCount, 40);
    assert.deepEqual(
      told.data.deliveries
        .map((delivery: { destinationId: string; location: string }) => [delivery.destinationId, delivery.location])
        .sort(),
      [
        [viaSftp.id, `sftp://127.0.0.1:${sftp.port}${at}/${fileName}`],
        [viaKey.id, `sftp://127.0.0.1:${sftp.port}${byKey}/${fileName}`],
        [store.id, `s3://${partnerBucket}/mapping/${fileName} at ${api.config.s3Endpoint}`],
        [viaRole.id, `s3://${partnerBucket}/role/${fileName}`],
      ].sort(),
    );
    const exported = Buffer.from(await (await fetch(told.data.export.fileUrl)).arrayBuffer());
    assert.ok(exported.toString('utf8').startsWith('partnerHotelId,'));
    assert.deepEqual([...readdirSync(at)], [fileName], 'no temporary file is left');
    assert.ok(readFileSync(join(at, fileName)).equals(exported), 'the SFTP file is the export, byte for byte');
    assert.ok(readFileSync(join(byKey, fileName)).equals(exported), 'the SFTP file written with a key is the export, byte for byte');
    assert.ok((await partnerObject(`mapping/${fileName}`)).equals(exported), "the partner's object is the export, byte for byte");
    assert.ok(
      (await partnerObject(`role/${fileName}`)).equals(exported),
      'the object written through the role is the export, byte for byte',
    );

    const [delivered] = await history(partner, viaSftp.id);
    assert.equal(delivered.status, 'SUCCEEDED');
    assert.equal(delivered.mappingJobId, jobId);
    assert.equal(delivered.sizeBytes, exported.length);
    assert.deepEqual(
      delivered.attempts.map((attempt: { succeeded: boolean }) => attempt.succeeded),
      [true],
    );
    assert.deepEqual(await history(partner, paused.id), []);
    assert.ok((await api.request('GET', `/api/v1/delivery-destinations/${viaSftp.id}`, { as: partner })).body.lastDeliveredAt);
  });

  it('retries a delivery whose server died mid-upload, and the file lands whole, never half', async () => {
    const partner = await api.newOrganization();
    const at = folder('killed');
    const destination = await create(partner, sftpDestination(at));
    sftp.dropAfterBytes = 2_000;
    const jobId = await jobOf(partner, 60);
    const fileName = `mapping-${jobId}.csv`;
    assert.ok(!readdirSync(at).includes(fileName), 'no half file under the final name');
    const [failed] = await history(partner, destination.id);
    assert.equal(failed.status, 'RETRYING');
    assert.equal(failed.attempts[0].reasonCode, 'WRITE_FAILED', failed.attempts[0].error);

    api.clock.advance(MINUTE);
    await api.messaging.idle();
    const [retried] = await history(partner, destination.id);
    assert.equal(retried.status, 'SUCCEEDED', JSON.stringify(retried.attempts));
    const exported = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: partner });
    const bytes = Buffer.from(await (await fetch(exported.body.fileUrl)).arrayBuffer());
    assert.ok(readFileSync(join(at, fileName)).equals(bytes), 'the delivered file is the export, byte for byte');
    const [leftOver, ...others] = [...readdirSync(at)].filter((name) => name !== fileName);
    assert.match(
      leftOver ?? '',
      new RegExp(`^\\.${fileName.replace(/\./g, '\\.')}\\.[0-9a-f]{8}\\.part$`),
      'the broken transfer left only its hidden temporary file',
    );
    assert.deepEqual(others, []);
  });

  it('disables a destination after three deliveries in a row fail, with the reason and an event; resuming counts afresh', async () => {
    const partner = await api.newOrganization();
    const destination = await create(partner, sftpDestination(folder('refused'), { password: 'wrong password' }));
    for (let job = 0; job < 3; job++) {
      await jobOf(partner, 5, 100 + job * 5);
      // Every retry of the schedule: 1, 5 and 30 minutes.
      for (const wait of [1, 5, 30]) {
        api.clock.advance(wait * MINUTE);
        await api.messaging.idle();
      }
    }
    const deliveries = await history(partner, destination.id);
    assert.equal(deliveries.length, 3);
    for (const delivery of deliveries) {
      assert.equal(delivery.status, 'FAILED');
      assert.deepEqual(
        delivery.attempts.map((attempt: { reasonCode: string }) => attempt.reasonCode),
        ['AUTH_REFUSED', 'AUTH_REFUSED', 'AUTH_REFUSED', 'AUTH_REFUSED'],
      );
    }
    const disabled = (await api.request('GET', `/api/v1/delivery-destinations/${destination.id}`, { as: partner })).body;
    assert.equal(disabled.status, 'DISABLED');
    assert.match(disabled.disabledReason, /3 deliveries in a row failed; the last: .*refused the user/);
    const events = await eventOutboxOf(api.runtime).listForOrganization(partner.organization.id);
    const event = events.find((recorded) => recorded.type === 'DELIVERY_DESTINATION_DISABLED');
    assert.deepEqual(event?.data, {
      destinationId: destination.id,
      name: destination.name,
      type: 'SFTP',
      reasonCode: 'AUTH_REFUSED',
      reason: disabled.disabledReason,
      disabledAt: disabled.disabledAt,
    });

    // Disabled: the next job is not delivered to it.
    await jobOf(partner, 5, 150);
    assert.equal((await history(partner, destination.id)).length, 3);

    const resumed = await api.request('PATCH', `/api/v1/delivery-destinations/${destination.id}`, {
      as: partner,
      json: { status: 'ACTIVE', password: sftp.password },
    });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.status, 'ACTIVE');
    assert.equal(resumed.body.failedInARow, 0);
    assert.equal(resumed.body.disabledReason, null);
    const stored = await destinationStoreOf(api.runtime).get(partner.organization.id, destination.id);
    assert.ok(stored?.sftp?.passwordSealed && !stored.sftp.passwordSealed.includes(sftp.password), 'the new password is stored sealed');
    assert.equal((await test(partner, destination.id)).body.succeeded, true);
  });
});
