import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { promisify } from 'node:util';
import { referenceStoreOf } from '../../shared/reference';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { startTestApi } from '../support/test-api';
import { HotelRecords } from '../../shared/reference/hotel-records';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const api = await startTestApi();
const caller = await api.newOrganization();
const folder = mkdtempSync(join(tmpdir(), 'reference-import-'));

const PARIS = '6a0c4f1e-93a4-4a8e-9d5b-2f1b7c3d9e01';
const LYON = '6a0c4f1e-93a4-4a8e-9d5b-2f1b7c3d9e02';
const CSV = [
  'id,name,address,city,region,postalCode,country,lat,lon,rating,supplierCodes',
  `${PARIS},Hôtel du Louvre,Place André Malraux,Paris,Île-de-France,75001,France,48.8629,2.3355,5,HOTELBEDS:1001;EXPEDIA:99001`,
  `${LYON},Hotel Carlton Lyon,4 Rue Jussieu,Lyon,Auvergne-Rhône-Alpes,69002,France,45.7624,4.8357,4,HOTELBEDS:1002`,
  ',Nameless id,,Paris,,,France,,,,',
  'not-a-uuid,Bad Id Hotel,,Paris,,,France,,,,',
  `${PARIS},Repeated Id Hotel,,Paris,,,France,,,,`,
  '6a0c4f1e-93a4-4a8e-9d5b-2f1b7c3d9e03,Far North,,Oslo,,,Norway,north,10.7,,',
].join('\n');

async function importFile(file: string): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'infra/cli/reference-import.ts'), file, '--source', 'test-file'],
      {
        cwd: ROOT,
        env: { ...process.env, TABLE_NAME: api.config.tableName, BUCKET_NAME: api.config.bucketName, AWS_REGION: api.config.region },
      },
    );
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, json: undefined, stderr: failed.stderr };
  }
}

describe('npm run reference:import', () => {
  it('imports good rows as a new version and reports bad rows with line and reason', async () => {
    const file = join(folder, 'inventory.csv');
    writeFileSync(file, CSV);
    const { code, json, stderr } = await importFile(file);
    assert.equal(code, 0, stderr);
    assert.equal(json.hotelCount, 2);
    assert.equal(json.rejectedCount, 4);
    assert.deepEqual(
      json.rejected.map((r: { line: number }) => r.line),
      [4, 5, 6, 7],
    );
    assert.match(json.rejected[0].reason, /id/);
    assert.match(json.rejected[1].reason, /not a UUID/);
    assert.match(json.rejected[2].reason, /already used on line 2/);
    assert.match(json.rejected[3].reason, /lat/);

    const hotel = await api.request('GET', `/api/v1/reference/${PARIS}`, { as: caller });
    assert.equal(hotel.status, 200);
    assert.equal(hotel.body.name, 'Hôtel du Louvre');
    assert.deepEqual(hotel.body.metadata.supplierCodes, { HOTELBEDS: '1001', EXPEDIA: '99001' });
    assert.equal(hotel.body.metadata.source, 'test-file');
    const search = await api.request('GET', '/api/v1/reference/search?q=hotel%20du%20louvre', { as: caller });
    assert.equal(search.body.results[0].id, PARIS);
  });

  it('a new import replaces the inventory as a whole; a file without one good row changes nothing', async () => {
    const file = join(folder, 'second.csv');
    writeFileSync(file, ['id,name,city,country', `${LYON},Carlton Lyon Renamed,Lyon,France`].join('\n'));
    const second = await importFile(file);
    assert.equal(second.code, 0, second.stderr);
    const stats = await api.request('GET', '/api/v1/reference/statistics', { as: caller });
    assert.equal(stats.body.totalHotels, 1);
    assert.equal((await api.request('GET', `/api/v1/reference/${PARIS}`, { as: caller })).status, 404);
    assert.equal((await api.request('GET', `/api/v1/reference/${LYON}`, { as: caller })).body.name, 'Carlton Lyon Renamed');

    const before = (await api.request('GET', '/api/v1/reference', { as: caller })).body.versionId;
    const bad = join(folder, 'bad.csv');
    writeFileSync(bad, 'id,name\nnot-a-uuid,Nope\n');
    const failed = await importFile(bad);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /no valid hotel rows \(line 2: id "not-a-uuid" is not a UUID\)/);
    assert.equal((await api.request('GET', '/api/v1/reference', { as: caller })).body.versionId, before);
  });

  it('keeps the previous publication for requests under way and deletes the one before it', async () => {
    const publications = [];
    for (const name of ['Third', 'Fourth', 'Fifth']) {
      const file = join(folder, `${name}.csv`);
      writeFileSync(file, ['id,name,city,country', `${LYON},Carlton ${name},Lyon,France`].join('\n'));
      assert.equal((await importFile(file)).code, 0);
      publications.push((await referenceStoreOf(api.runtime).getCurrent())!);
    }
    const [oldest, previous, current] = publications as [(typeof publications)[0], (typeof publications)[0], (typeof publications)[0]];
    assert.equal(current.previous?.dataVersionId, previous.dataVersionId);
    // A fresh reader each time: a container's cache of pages is not what this checks.
    const record = (version: typeof current) => new HotelRecords(objectStoreOf(api.runtime)).get(LYON, version);
    assert.equal(await record(oldest), undefined, 'retired records are deleted');
    assert.equal(await objectStoreOf(api.runtime).get(oldest.artifacts.indexKey), undefined, 'retired artifacts are deleted');
    assert.equal((await record(previous))?.name, 'Carlton Fourth');
    assert.ok(await objectStoreOf(api.runtime).get(previous.artifacts.indexKey));
    assert.equal((await record(current))?.name, 'Carlton Fifth');
  });

  it('explains bad usage', async () => {
    const result = await importFile(join(folder, 'inventory.pdf'));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Usage: npm run reference:import/);
  });
});
