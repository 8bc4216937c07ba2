/**
 * The book's store against DynamoDB Local: the entries laid over a generation (read by one Query or
 * by key, as the book's size says, for a while by the runtime's clock), their ranges and their
 * removal once folded, and the one write that holds a book at a time.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startTestApi } from '../support/test-api';
import { applyJobRow, OWN_SOURCE, type BookEntry } from '../../shared/mapping-book/entries';
import { entryKey } from '../../shared/mapping-book/keys';
import { BookStore } from '../../shared/mapping-book/store';
import { tableOf, transactWrite, type Table } from '../../shared/platform/table';

const api = await startTestApi();
const AT = '2026-11-30T10:00:00.000Z';

const entry = (i: number): BookEntry =>
  applyJobRow(
    undefined,
    {
      partnerHotelId: `P${String(i).padStart(3, '0')}`,
      source: OWN_SOURCE,
      partner: { name: `Hotel ${i}` },
      status: 'MATCHED',
      method: 'FUZZY',
      referenceHotelId: `R-${i}`,
      referenceHotelName: `Reference ${i}`,
      score: 0.9,
      evidence: null,
      candidates: [],
    },
    AT,
    'job-1',
    AT,
  ).entry;

/** A store over the test table whose client notes the name of every command it sends. */
function recordingStore() {
  const table = tableOf(api.runtime);
  const sent: string[] = [];
  const client = Object.assign(Object.create(table.client) as DynamoDBDocumentClient, {
    send: (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      return table.client.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
    },
  });
  const recording: Table = { name: table.name, client };
  return { store: new BookStore(recording, api.clock), sent, table };
}

async function layOver(store: BookStore, organizationId: string, entries: readonly BookEntry[], sequence = 1) {
  for (const each of entries) await transactWrite(store.table, [store.layOverItem(organizationId, each, sequence)]);
}

describe('entries laid over a generation', () => {
  it('reads a few of a book by one Query, in the order asked, and none of another organization', async () => {
    const { store, sent } = recordingStore();
    const [organizationId, other] = [randomUUID(), randomUUID()];
    const all = Array.from({ length: 12 }, (_, i) => entry(i));
    await layOver(store, organizationId, [all[2]!, all[7]!]);
    await layOver(store, other, all);
    sent.length = 0;
    const read = await store.laidOverMany(organizationId, all);
    assert.deepEqual(
      read.map((laid) => laid?.entry.partnerHotelId),
      all.map((each, i) => (i === 2 || i === 7 ? each.partnerHotelId : undefined)),
    );
    assert.deepEqual(sent, ['QueryCommand']);
  });

  it('reads a book of more than asked for by key, and keeps doing so for ten minutes by the clock', async () => {
    const { store, sent } = recordingStore();
    const organizationId = randomUUID();
    const all = Array.from({ length: 30 }, (_, i) => entry(i));
    await layOver(store, organizationId, all);
    const asked = all.slice(0, 12);
    sent.length = 0;
    assert.equal((await store.laidOverMany(organizationId, asked)).filter(Boolean).length, 12);
    assert.deepEqual(sent, ['QueryCommand', 'BatchGetCommand'], 'the Query found more: read by key');
    sent.length = 0;
    api.clock.advance(9 * 60_000);
    await store.laidOverMany(organizationId, asked);
    assert.deepEqual(sent, ['BatchGetCommand']);
    sent.length = 0;
    api.clock.advance(60_001);
    await store.laidOverMany(organizationId, asked);
    assert.deepEqual(sent, ['QueryCommand', 'BatchGetCommand'], 'ten minutes on, the Query is tried again');
  });

  it('answers a range from its lower key up to its upper key left out, and removes what a generation folded unless decided again', async () => {
    const { store } = recordingStore();
    const organizationId = randomUUID();
    const all = Array.from({ length: 6 }, (_, i) => entry(i));
    await layOver(store, organizationId, all);
    const inRange = await store.laidOverIn(organizationId, { lower: entryKey(all[1]!), upper: entryKey(all[4]!) });
    assert.deepEqual(
      inRange.map((laid) => laid.entry.partnerHotelId),
      ['P001', 'P002', 'P003'],
    );
    const folded = await store.laidOverAll(organizationId);
    await layOver(store, organizationId, [all[3]!], 2);
    await store.removeFolded(organizationId, folded);
    assert.deepEqual(
      (await store.laidOverAll(organizationId)).map((laid) => [laid.entry.partnerHotelId, laid.sequence]),
      [['P003', 2]],
    );
  });
});

describe('the write that holds a book', () => {
  it("is one job's at a time, taken again by the same job, and given back when abandoned", async () => {
    const { store } = recordingStore();
    const organizationId = randomUUID();
    assert.equal(await store.beginWriting(organizationId, 'job-1'), true);
    assert.equal(await store.beginWriting(organizationId, 'job-1'), true);
    assert.equal(await store.beginWriting(organizationId, 'job-2'), false);
    assert.equal(await store.beginWriting(randomUUID(), 'job-2'), true, "another organization's book is its own");
    await store.abandonWrite(organizationId, 'job-1');
    assert.equal((await store.state(organizationId)).writing, undefined);
    assert.equal(await store.beginWriting(organizationId, 'job-2'), true);
  });
});
