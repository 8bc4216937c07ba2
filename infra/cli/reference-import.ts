/**
 * `npm run reference:import -- <file> [--source <name>]`: imports a reference inventory (CSV or
 * JSON Lines; columns id,name,address,city,region,postalCode,country,lat,lon,rating,supplierCodes)
 * as a new version of the running local stack, or of a deployed one (TABLE_NAME, BUCKET_NAME).
 * Bad rows are reported with line and reason and skipped. Prints a JSON summary.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readReferenceInventory } from '../../shared/mapping';
import { detectTabularFormat } from '../../shared/platform/files/formats';
import { importReferenceInventory, referencePortsOf } from '../../shared/reference';
import { createRuntime } from '../../shared/platform/runtime';
import { runCommand, targetConfig, UsageError } from './target';

const USAGE = 'Usage: npm run reference:import -- <file.csv|file.jsonl> [--source <name>]';
const SHOWN_REJECTIONS = 20;

async function main() {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { source: { type: 'string' } } });
  const file = positionals[0];
  if (!file) throw new UsageError('Name the file to import.');
  const format = detectTabularFormat(file);
  if (format !== 'csv' && format !== 'jsonl') throw new UsageError('The file must be .csv or .jsonl.');
  const runtime = createRuntime(targetConfig({ needsBucket: true }));
  const startedAt = Date.now();
  const summary = await importReferenceInventory(
    referencePortsOf(runtime),
    readReferenceInventory(createReadStream(file), format),
    values.source ?? basename(file),
  );
  return {
    ...summary,
    rejected: summary.rejected.slice(0, SHOWN_REJECTIONS),
    seconds: (Date.now() - startedAt) / 1000,
  };
}

runCommand(main, USAGE);
