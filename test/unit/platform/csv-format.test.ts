/** CSV writing: quoting, and cells a spreadsheet would run as formulas. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { formatCsvField, formatCsvRow } from '../../../shared/platform/files/csv-format';

describe('formatCsvField', () => {
  it('quotes the delimiter, quotes and line breaks; writes null and undefined empty', () => {
    assert.equal(formatCsvRow(['a,b', 'say "hi"', 'two\nlines', null, undefined, 4, true]), '"a,b","say ""hi""","two\nlines",,,4,true');
    assert.equal(formatCsvField('a;b', ';'), '"a;b"');
  });

  it('neutralises text a spreadsheet would run as a formula, as OWASP recommends', () => {
    assert.equal(formatCsvField('=HYPERLINK("http://evil.example","click")'), `"'=HYPERLINK(""http://evil.example"",""click"")"`);
    assert.deepEqual(
      ['+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR'].map((text) => formatCsvField(text)),
      ["'+1+1", "'-2+3", "'@SUM(A1)", "'\tTab", `"'\rCR"`],
    );
    // Numbers, and numbers written as text, stay numbers; a sign inside the text is no formula.
    assert.deepEqual(
      [formatCsvField(-0.5), formatCsvField('-12.5'), formatCsvField('+33'), formatCsvField('A=B')],
      ['-0.5', '-12.5', '+33', 'A=B'],
    );
  });
});
