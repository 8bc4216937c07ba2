/**
 * The operator's guide's figures about the stack are the synth's: its block matches what
 * infra/cli/stack-figures-block.ts counts now from a production stage (the fixture's stage has no
 * web ACL and keeps no data, so this one is synthesized here, once, without bundling), and the
 * counts hang together.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import {
  countStackFigures,
  figuresBlockIn,
  FIGURES_MARKERS,
  idleCostOf,
  renderFiguresBlock,
  sumOf,
  synthesizeFiguresStage,
  withFiguresBlock,
  workerConcurrencyOf,
} from '../../infra/cli/stack-figures-block';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';

const GUIDE = fileURLToPath(new URL('../../docs/guides/operator.md', import.meta.url));

const figures = countStackFigures(synthesizeFiguresStage());

describe("the operator's guide's stack figures", () => {
  it('are what the synth gives now', () => {
    const inGuide = figuresBlockIn(readFileSync(GUIDE, 'utf8'));
    assert.equal(inGuide, renderFiguresBlock(figures), 'docs/guides/operator.md is stale: run `npm run docs:figures`');
  });

  it('list every queue of the queue table with its worker, bounded as the table says, and each dead-letter handler', () => {
    const rows = figures.queues.polled;
    for (const queue of queueList) {
      const row = rows.find((polled) => polled.queue === queue.name);
      assert.ok(row, `${queue.name} is in the concurrency table`);
      assert.equal(row.handler, queue.handler);
      assert.equal(row.maxConcurrency, queue.concurrency.max, queue.name);
      if (queue.deadLetterHandler)
        assert.ok(
          rows.some((polled) => polled.deadLetters && polled.handler === queue.deadLetterHandler),
          `${queue.deadLetterHandler} is in the table`,
        );
    }
    assert.equal(rows.length, queueList.length + queueList.filter((queue) => queue.deadLetterHandler).length, 'no other queue is polled');
  });

  it('add up', () => {
    const { functions, queues } = figures;
    assert.equal(functions.routes, routeList.length);
    assert.equal(functions.routes + functions.queueWorkers + functions.deadLetterHandlers + functions.others.length, functions.total);
    assert.equal(functions.queueWorkers + functions.deadLetterHandlers, queues.polled.length, 'one function per polled queue');
    assert.equal(workerConcurrencyOf(figures), sumOf(queues.polled.map((queue) => queue.maxConcurrency)));

    const lines = idleCostOf(figures);
    const block = renderFiguresBlock(figures);
    const total = sumOf(lines.map((line) => line.usd));
    assert.match(block, new RegExp(`\\| \\*\\*the production stage, idle\\*\\* \\| \\*\\*${total.toFixed(2)}\\*\\* \\|`));
    const webAclLine = lines.find((line) => line.webAcl);
    assert.ok(webAclLine && webAclLine.usd > 0, 'the production stage pays for its web ACL');
    assert.match(block, new RegExp(`\\| a retaining stage without a web ACL, idle \\| ${(total - webAclLine.usd).toFixed(2)} \\|`));
    assert.match(block, new RegExp(`\\| \\*\\*all\\*\\* \\| \\| \\*\\*${workerConcurrencyOf(figures)}\\*\\* \\|`));
  });

  it('replaces only what lies between the markers', () => {
    const guide = `before\n${FIGURES_MARKERS.start}\nold\n${FIGURES_MARKERS.end}\nafter\n`;
    const block = `${FIGURES_MARKERS.start}\nnew\n${FIGURES_MARKERS.end}`;
    assert.equal(withFiguresBlock(guide, block), `before\n${block}\nafter\n`);
    assert.throws(() => figuresBlockIn('no markers'), /must hold one <!-- stack-figures:start -->/);
    assert.throws(() => figuresBlockIn(`${guide}${guide}`), /must hold one/);
  });
});
