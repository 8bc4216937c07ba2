/** Text columns: many strings kept as one string, what the matching index and the id table hold. */
import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import {
  hashText,
  scatterText,
  type TextColumn,
  TextColumnBuilder,
  textAt,
  textColumnOf,
  textEquals,
  textHashes,
  textIsEmpty,
} from '../../../shared/mapping/columns';

const valuesOf = (column: TextColumn) => Array.from(column.starts, (_, i) => textAt(column, i));

// Empty values, non-Latin-1 text (the joined string then stores two bytes a character), a NUL.
const values = Array.from({ length: 1000 }, (_, i) =>
  i % 7 === 0 ? '' : i % 11 === 0 ? `東京 ${i}` : i === 500 ? 'a\u0000b' : `value-${i}`,
);

describe('TextColumnBuilder', () => {
  it('gives back every value in order, however many pieces it joined', () => {
    const column = textColumnOf(values);
    assert.deepEqual(valuesOf(column), values);
    assert.equal(column.text, values.join(''));
  });

  it('tells a value equal without slicing it out, before and after its piece is joined', () => {
    const builder = new TextColumnBuilder();
    for (const value of values.slice(0, 300)) builder.add(value);
    // 0..255 are in a joined piece, 256..299 still pending.
    for (const i of [0, 1, 11, 255, 256, 299]) {
      assert.equal(builder.equals(i, values[i]!), true, `value ${i}`);
      assert.equal(builder.equals(i, `${values[i]}x`), false, `value ${i} and a longer one`);
      assert.equal(builder.equals(i, values[i + 1]!), values[i] === values[i + 1], `value ${i} and the next one`);
    }
  });

  it('appends a packed column of another builder as if its values were added one by one', () => {
    const first = new TextColumnBuilder();
    for (const value of values.slice(0, 300)) first.add(value);
    const second = new TextColumnBuilder();
    for (const value of values.slice(300)) second.add(value);
    first.append(second.packed());
    first.append(new TextColumnBuilder().packed());
    assert.equal(first.count, values.length);
    assert.deepEqual(first.packed(), textColumnOf(values));
    assert.equal(first.equals(700, values[700]!), true);
    // It goes on adding after packing.
    first.add('last');
    assert.equal(textAt(first.packed(), values.length), 'last');
  });

  it('packs nothing as an empty column', () => {
    const column = new TextColumnBuilder().packed();
    assert.equal(column.text, '');
    assert.equal(column.starts.length, 0);
    assert.equal(column.ends.length, 0);
  });
});

describe('text column reads', () => {
  const column = textColumnOf(['Paris', '', '75010', 'Paris']);

  it('compare, test for empty and hash a value in place', () => {
    assert.equal(textEquals(column, 0, 'Paris'), true);
    assert.equal(textEquals(column, 0, 'Pari'), false);
    assert.equal(textEquals(column, 2, 'Paris'), false);
    assert.equal(textEquals(column, 1, ''), true);
    assert.equal(textIsEmpty(column, 1), true);
    assert.equal(textIsEmpty(column, 2), false);
    assert.deepEqual([...textHashes(column)], ['Paris', '', '75010', 'Paris'].map(hashText));
  });

  it('lays values out anew without moving the text', () => {
    const scattered = scatterText(column, Int32Array.from([3, 0, 1, 2]));
    assert.deepEqual(valuesOf(scattered), ['', '75010', 'Paris', 'Paris']);
    assert.equal(scattered.text, column.text);
  });
});
