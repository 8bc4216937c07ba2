/**
 * A column of short texts, one per row, as one string: a line per row (`\nv0\nv1\n`), so that a
 * text is found in every row at once by indexOf, and a row's value sliced out by its line's start.
 * A value holds no line break.
 */
export interface TextLines {
  text: string;
  /** Where each row's line break is, and the last one. */
  starts: Uint32Array;
}

export function textLinesOf(values: readonly string[]): TextLines {
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  values.forEach((value, row) => {
    starts[row] = at;
    at += value.length + 1;
  });
  starts[values.length] = at;
  return { text: `\n${values.join('\n')}\n`, starts };
}

/** The lines of a column's text, as stored without its starts. */
export function textLinesFrom(text: string, rows: number): TextLines {
  const starts = new Uint32Array(rows + 1);
  let at = 0;
  for (let row = 0; row <= rows; row++) {
    starts[row] = at;
    at = text.indexOf('\n', at + 1);
  }
  return { text, starts };
}

export const textAtLine = (lines: TextLines, row: number) => lines.text.slice(lines.starts[row]! + 1, lines.starts[row + 1]);

/** The row whose line holds text position `at`. */
function rowAt(lines: TextLines, at: number): number {
  let [low, high] = [0, lines.starts.length - 1];
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (lines.starts[middle]! <= at) low = middle;
    else high = middle;
  }
  return low;
}

/** Marks in `into` (`mark` or-ed) the rows whose line contains `text`; a whole value is found as `\n${value}\n`. */
export function markLinesContaining(lines: TextLines, text: string, into: Uint8Array, mark: number): void {
  for (let at = lines.text.indexOf(text); at >= 0;) {
    const row = rowAt(lines, at);
    into[row]! |= mark;
    // On to the next row: a row counts once.
    at = lines.text.indexOf(text, lines.starts[row + 1]);
  }
}
