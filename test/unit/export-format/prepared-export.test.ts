import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { prepareNamedExport, requestPreparedExport, type ExportHolder, type HeldExport } from '../../../shared/export-format';

interface Held extends HeldExport {
  id: string;
  /** What a ready export was made from: current while it is the holder's. */
  of?: string;
}

const NOW = new Date('2026-11-30T10:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

/**
 * A holder over one export item, as a store keeps it: a claim puts the next export in place only
 * if the item still holds the one the request read. Every write and send is recorded.
 */
function holder(initial: Held | undefined, options: { current?: string; sendFails?: boolean; refuse?: boolean } = {}) {
  let item = initial;
  let ids = 0;
  let meanwhile: Held | undefined;
  const writes: string[] = [];
  const lifecycle: ExportHolder<Held> & { readonly item: Held | undefined; writes: string[]; replaceMeanwhile(by: Held): void } = {
    get item() {
      return item;
    },
    writes,
    // Another request's claim, landing between this request's read and its own claim.
    replaceMeanwhile(by) {
      meanwhile = by;
    },
    held: async () => {
      const seen = item;
      if (meanwhile) [item, meanwhile] = [meanwhile, undefined];
      return seen;
    },
    idOf: (held) => held.id,
    isCurrent: (ready) => ready.of === (options.current ?? 'book-1'),
    overdueSeconds: 60,
    next: async () => {
      if (options.refuse) throw new Error('refused');
      return { id: `export-${++ids}`, status: 'PREPARING', requestedAt: NOW.toISOString() };
    },
    claim: async (next, replaced) => {
      if (item?.id !== replaced?.id) return false;
      writes.push(`claim ${next.id}`);
      item = next;
      return true;
    },
    send: async (next) => {
      if (options.sendFails) throw new Error('the queue is unreachable');
      writes.push(`send ${next.id}`);
    },
    release: async (next) => {
      writes.push(`release ${next.id}`);
      if (item?.id === next.id) item = undefined;
    },
    now: () => NOW,
  };
  return lifecycle;
}

describe('the lifecycle of a prepared export', () => {
  it('prepares the first export: claimed, then handed to the worker', async () => {
    const exports = holder(undefined);
    assert.deepEqual(await requestPreparedExport(exports), { status: 'PREPARING', held: exports.item });
    assert.deepEqual(exports.writes, ['claim export-1', 'send export-1']);
  });

  it('hands a current ready export out again, and prepares another for one no longer current', async () => {
    const ready: Held = { id: 'export-0', status: 'READY', requestedAt: ago(3_600), of: 'book-1' };
    const current = holder(ready);
    assert.deepEqual(await requestPreparedExport(current), { status: 'READY', held: ready });
    assert.deepEqual(current.writes, []);
    const stale = holder(ready, { current: 'book-2' });
    assert.equal((await requestPreparedExport(stale)).status, 'PREPARING');
    assert.deepEqual(stale.writes, ['claim export-1', 'send export-1']);
  });

  it('answers an export under way without starting it again, and prepares an overdue one again', async () => {
    const underWay = holder({ id: 'export-0', status: 'PREPARING', requestedAt: ago(60) });
    assert.equal((await requestPreparedExport(underWay)).held.id, 'export-0');
    assert.deepEqual(underWay.writes, []);
    const overdue = holder({ id: 'export-0', status: 'PREPARING', requestedAt: ago(61) });
    assert.equal((await requestPreparedExport(overdue)).held.id, 'export-1');
    assert.deepEqual(overdue.writes, ['claim export-1', 'send export-1']);
  });

  it('of two requests that read the same export, the second answers what the first claimed', async () => {
    const exports = holder(undefined);
    const theirs: Held = { id: 'theirs', status: 'PREPARING', requestedAt: NOW.toISOString() };
    exports.replaceMeanwhile(theirs);
    assert.deepEqual(await requestPreparedExport(exports), { status: 'PREPARING', held: theirs });
    assert.deepEqual(exports.writes, [], 'nothing claimed, nothing sent');
  });

  it('gives a claim up when its message cannot be sent, so the next request prepares one at once', async () => {
    const exports = holder(undefined, { sendFails: true });
    await assert.rejects(requestPreparedExport(exports), /the queue is unreachable/);
    assert.deepEqual(exports.writes, ['claim export-1', 'release export-1']);
    assert.equal(exports.item, undefined);
  });

  it('refuses before anything is claimed', async () => {
    const ready: Held = { id: 'export-0', status: 'READY', requestedAt: ago(3_600), of: 'book-1' };
    const exports = holder(ready, { current: 'book-2', refuse: true });
    await assert.rejects(requestPreparedExport(exports), /refused/);
    assert.deepEqual(exports.writes, []);
    assert.equal(exports.item, ready);
  });

  it('the worker prepares only the export its message names, while it is still being prepared', async () => {
    const prepared: string[] = [];
    const prepare = async (held: Held) => void prepared.push(held.id);
    const preparing = holder({ id: 'export-1', status: 'PREPARING', requestedAt: NOW.toISOString() });
    await prepareNamedExport(preparing, 'export-0', prepare);
    await prepareNamedExport(preparing, 'export-1', prepare);
    await prepareNamedExport(holder({ id: 'export-1', status: 'READY', requestedAt: NOW.toISOString() }), 'export-1', prepare);
    await prepareNamedExport(holder(undefined), 'export-1', prepare);
    assert.deepEqual(prepared, ['export-1']);
  });
});
