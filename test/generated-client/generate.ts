/**
 * The partner's generator: types for the whole API from its OpenAPI document, with
 * openapi-typescript's Node API. Binary parts (`format: binary`, a file upload) become Blob, as
 * openapi-typescript's documentation recommends; everything else is the tool's default.
 *
 *   node --import tsx test/generated-client/generate.ts <document URL or file> <output .d.ts>
 */
import { readFile, writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const [source, output] = process.argv.slice(2);
if (!source || !output) throw new Error('usage: generate.ts <document URL or file> <output .d.ts>');

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const document = /^https?:/.test(source) ? await (await fetch(source)).text() : await readFile(source, 'utf8');
const ast = await openapiTS(document, {
  transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
});
await writeFile(output, astToString(ast));
