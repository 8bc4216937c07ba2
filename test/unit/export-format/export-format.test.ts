import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { resolveExportFormat } from '../../../shared/export-format/export-format';

const now = new Date('2026-05-05T05:05:05Z');

describe('resolveExportFormat', () => {
  it('applies the documented defaults to what is omitted', () => {
    assert.deepEqual(resolveExportFormat({ format: 'json' }, 'id-1', now), {
      id: 'id-1',
      format: 'json',
      includeFields: undefined,
      delimiter: ',',
      includeHeader: true,
      compression: 'none',
      updatedAt: now.toISOString(),
    });
  });

  it('keeps what is given', () => {
    const config = resolveExportFormat(
      { format: 'csv', includeFields: ['score'], delimiter: '\t', includeHeader: false, compression: 'gzip' },
      'id-2',
      now,
    );
    assert.deepEqual([config.includeFields, config.delimiter, config.includeHeader, config.compression], [['score'], '\t', false, 'gzip']);
  });
});
