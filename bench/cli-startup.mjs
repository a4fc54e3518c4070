#!/usr/bin/env node
/**
 * Start-up ratios to a bare `node -e 0`, from paired runs (each run of a
 * command right after a run of the reference, so machine load hits both):
 * the median of the per-pair ratios. Budgets (issues 12 and 14):
 *   news --version ≤ 1.5×, news search --help ≤ 2.0×,
 *   news __complete search --sen (the Tab path) ≤ 1.3×.
 * Needs `npm run build`. Usage: node bench/cli-startup.mjs [--runs 20]
 * Exits 1 when a budget is missed.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;

const CASES = [
  { name: 'news --version', args: [BIN, '--version'], budget: 1.5 },
  { name: 'news search --help', args: [BIN, 'search', '--help'], budget: 2.0 },
  {
    name: 'news __complete search --sen',
    args: [BIN, '__complete', 'search', '--sen'],
    budget: 1.3,
  },
  {
    name: 'news __complete search --language-code e',
    args: [BIN, '__complete', 'search', '--language-code', 'e'],
    budget: 1.3,
  },
];

function time(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

let failed = false;
console.log(`| command | median ms | node -e 0 ms | ratio (median of ${RUNS} pairs) | budget |`);
console.log('|---|---|---|---|---|');
for (const c of CASES) {
  time(c.args); // warm the file cache
  const ratios = [];
  const ms = [];
  const ref = [];
  for (let i = 0; i < RUNS; i++) {
    const a = time(['-e', '0']);
    const b = time(c.args);
    ref.push(a);
    ms.push(b);
    ratios.push(b / a);
  }
  const ratio = median(ratios);
  const ok = ratio <= c.budget;
  failed ||= !ok;
  console.log(
    `| ${c.name} | ${median(ms).toFixed(0)} | ${median(ref).toFixed(0)} | ${ratio.toFixed(2)} | ≤ ${c.budget} ${ok ? 'ok' : 'MISSED'} |`,
  );
}
process.exitCode = failed ? 1 : 0;
