// Table drawing benchmark: `-f table` is drawn by cli-table3 (docs/OUTPUT.md,
// "Table"), which measures every cell several times with string-width. This
// times the real export path (`exportRecords`, pages of 100, to a file) for
// the same generated articles as table (plain and box) and as csv, the
// reference in the same run, and prints a Markdown table: the median of the
// runs, rows per second and milliseconds per 100-row page.
//   npm run build && node bench/table.bench.mjs            # 20,000 articles, 5 runs
//   node bench/table.bench.mjs --rows 5000 --runs 3 --width 120
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportRecords } from '../dist/output/index.js';
import { article } from './export-articles.mjs';
import { median, numberOption } from './lib.mjs';

const ROWS = numberOption('rows', 20_000);
const RUNS = numberOption('runs', 5);
const WIDTH = numberOption('width', 100);

const records = Array.from({ length: ROWS }, (_, i) => article(i));
async function* pages() {
  for (let i = 0; i < records.length; i += 100) yield records.slice(i, i + 100);
}

const dir = mkdtempSync(join(tmpdir(), 'news-table-bench-'));

async function time(format, tableStyle) {
  const ms = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await exportRecords(pages(), {
      format,
      output: join(dir, `out.${format === 'table' ? 'txt' : format}`),
      stdout: process.stdout,
      stdoutIsTTY: false,
      kind: 'article',
      warn: () => {},
      title: 'bench',
      terminalWidth: WIDTH,
      tableStyle,
    });
    ms.push(performance.now() - start);
  }
  return median(ms);
}

console.log(`${ROWS.toLocaleString('en-US')} articles, ${WIDTH} columns, median of ${RUNS} runs`);
console.log('| format | ms | rows/s | ms per 100-row page |');
console.log('|---|---|---|---|');
try {
  for (const [label, format, style] of [
    ['table', 'table', 'plain'],
    ['table (box)', 'table', 'box'],
    ['csv (reference)', 'csv', undefined],
  ]) {
    const ms = await time(format, style);
    console.log(
      `| ${label} | ${ms.toFixed(0)} | ${Math.round((ROWS / ms) * 1000).toLocaleString('en-US')} | ${((ms / ROWS) * 100).toFixed(1)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
