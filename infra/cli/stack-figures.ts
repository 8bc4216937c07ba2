/**
 * Writes the stack's figures into the operator's guide, between its markers:
 *
 *   npm run docs:figures
 *
 * Synthesizes a production stage without bundling and without AWS credentials, counts from its
 * templates (infra/cli/stack-figures-block.ts) and replaces the guide's block with what it counted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countStackFigures, renderFiguresBlock, synthesizeFiguresStage, withFiguresBlock } from './stack-figures-block';

const GUIDE = fileURLToPath(new URL('../../docs/guides/operator.md', import.meta.url));

const block = renderFiguresBlock(countStackFigures(synthesizeFiguresStage()));
const guide = readFileSync(GUIDE, 'utf8');
const updated = withFiguresBlock(guide, block);
if (updated === guide) {
  process.stdout.write('docs/guides/operator.md: the stack figures are already up to date.\n');
} else {
  writeFileSync(GUIDE, updated);
  process.stdout.write('docs/guides/operator.md: the stack figures are rewritten.\n');
}
