/**
 * Writes a deterministic synthetic reference inventory as CSV or JSON Lines.
 *
 *   npm run reference:generate -- --hotels 1000000 --seed 42 [--out file.csv|file.jsonl] [--format csv|jsonl]
 *
 * Without --out the file goes to stdout (CSV unless --format jsonl). The format otherwise follows
 * the --out extension.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { generateReferenceHotels } from '../synthetic/generator';
import { inventoryFileChunks, type InventoryFileFormat } from '../../shared/reference';

function parsePositiveInteger(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${flag} must be a non-negative integer, got "${text}"`);
  return value;
}

function resolveFormat(format: string | undefined, out: string | undefined): InventoryFileFormat {
  const chosen = format ?? (out?.toLowerCase().endsWith('.jsonl') ? 'jsonl' : 'csv');
  if (chosen !== 'csv' && chosen !== 'jsonl') throw new Error(`--format must be csv or jsonl, got "${chosen}"`);
  return chosen;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      hotels: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      format: { type: 'string' },
    },
  });
  const count = parsePositiveInteger(values.hotels, '--hotels', 1000);
  const seed = parsePositiveInteger(values.seed, '--seed', 1);
  const format = resolveFormat(values.format, values.out);
  const destination = values.out ? createWriteStream(values.out) : process.stdout;

  const started = performance.now();
  await pipeline(Readable.from(inventoryFileChunks(generateReferenceHotels({ count, seed }), format)), destination);
  if (values.out) {
    console.error(
      `Wrote ${count} hotels (seed ${seed}, ${format}) to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
