import * as v from 'valibot';
import { Text, Timestamp, Uuid } from '../platform/http/schemas';
import { MAPPING_EXPORT_COLUMNS } from '../mapping';
import { EXPORT_COMPRESSIONS, EXPORT_FORMATS } from './export-format';

export const ExportFormatRequest = v.pipe(
  v.strictObject({
    format: v.picklist(EXPORT_FORMATS, 'must be one of json, csv, jsonl, xlsx'),
    includeFields: v.optional(
      v.pipe(
        v.array(v.picklist(MAPPING_EXPORT_COLUMNS, `must be mapping result fields: ${MAPPING_EXPORT_COLUMNS.join(', ')}`)),
        v.minLength(1, 'must name at least one field; omit it for all fields'),
        v.check((fields) => new Set(fields).size === fields.length, 'must not repeat a field'),
      ),
    ),
    delimiter: v.optional(
      v.pipe(
        Text({ minLength: 1, maxLength: 1, allowTab: true, trim: false }),
        v.check((d) => d !== '"', 'must not be a quote'),
      ),
    ),
    includeHeader: v.optional(v.boolean('must be true or false')),
    compression: v.optional(v.picklist(EXPORT_COMPRESSIONS, 'must be gzip or none')),
  }),
  v.forward(
    v.check(
      (input) => input.format !== 'xlsx' || input.compression !== 'gzip',
      'must be none for xlsx: an XLSX file is a compressed archive already',
    ),
    ['compression'],
  ),
);

export const ExportFormatView = v.object({
  id: Uuid,
  format: v.picklist(EXPORT_FORMATS),
  includeFields: v.optional(v.pipe(v.array(v.picklist(MAPPING_EXPORT_COLUMNS)), v.description('Absent when every field is included'))),
  delimiter: v.string(),
  includeHeader: v.boolean(),
  compression: v.picklist(EXPORT_COMPRESSIONS),
  updatedAt: Timestamp,
});
