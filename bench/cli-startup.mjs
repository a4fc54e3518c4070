#!/usr/bin/env node
/**
 * Start-up ratios to a bare `node -e 0`, every command of the budget side by
 * side in one run. Each round runs every command once, each right after a run
 * of the reference, in a rotating order, so machine load hits both sides of a
 * pair; a command's ratio is the median of its per-pair ratios.
 * Budgets: search --help, search --dry-run ≤ 1.5×; count --mock
 * ≤ 2.0×; search --mock, one page, ≤ 2.5×; --version ≤ 1.5×,
 * the Tab path ≤ 1.3×.
 *
 * Needs `npm run build`. Usage:
 *   node bench/cli-startup.mjs [--runs 20] [--against OTHER/bin/news.js]
 * --against runs another build's bin beside this one (same rounds, same
 * reference runs): what a change bought, side by side. Exits 1 when a budget
 * is missed. XDG_CACHE_HOME points to a temporary folder: the figures are
 * those of the build's own code caches, not of ones a user's runs made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, numberOption, option } from './lib.mjs';

const RUNS = numberOption('runs', 20);
const AGAINST = option('against', undefined);

const CASES = [
  { name: 'news --version', args: ['--version'], budget: 1.5 },
  { name: 'news __complete search --sen', args: ['__complete', 'search', '--sen'], budget: 1.3 },
  { name: 'news search --help', args: ['search', '--help'], budget: 1.5 },
  {
    name: 'news search --dry-run --title bitcoin',
    args: ['search', '--dry-run', '--title', 'bitcoin'],
    budget: 1.5,
  },
  { name: 'news count --mock', args: ['count', '--mock'], budget: 2.0 },
  { name: 'news search --mock (one page)', args: ['search', '--mock'], budget: 2.5 },
];

const home = mkdtempSync(join(tmpdir(), 'news-startup-'));
// Commands write to a file (/dev/null), as in a script; no config file, and a
// cache folder of their own (search remembers values for completion there, as
// for a user; the build's code caches are used, not the user's).
const env = {
  ...process.env,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
};
delete env.NEWS_NO_COMPLETION_CACHE;
delete env.NEWS_NO_CODE_CACHE;
for (const name of Object.keys(env)) if (name.startsWith('NEWS_API')) delete env[name];
const devNull = openSync('/dev/null', 'w');

function time(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', devNull, 'pipe'], env });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const bins = AGAINST === undefined ? [BIN] : [BIN, AGAINST];
const runs = bins.map(() => CASES.map(() => ({ ms: [], ratios: [] })));
const reference = [];
try {
  for (const bin of bins) for (const c of CASES) time([bin, ...c.args]); // warm the file cache
  const order = bins.flatMap((bin, b) => CASES.map((c, i) => ({ bin, b, c, i })));
  for (let round = 0; round < RUNS; round++) {
    for (let k = 0; k < order.length; k++) {
      const { bin, b, c, i } = order[(k + round) % order.length];
      const ref = time(['-e', '0']);
      const ms = time([bin, ...c.args]);
      reference.push(ref);
      runs[b][i].ms.push(ms);
      runs[b][i].ratios.push(ms / ref);
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

let failed = false;
const against = AGAINST === undefined ? '' : ' | --against ratio';
console.log(
  `node ${process.version}, node -e 0: median ${median(reference).toFixed(0)} ms; ${RUNS} rounds\n`,
);
console.log(`| command | median ms | ratio to node -e 0${against} | budget |`);
console.log(`|---|---|---|${AGAINST === undefined ? '' : '---|'}---|`);
CASES.forEach((c, i) => {
  const ratio = median(runs[0][i].ratios);
  const ok = ratio <= c.budget;
  failed ||= !ok;
  const other = AGAINST === undefined ? '' : ` | ${median(runs[1][i].ratios).toFixed(2)}`;
  console.log(
    `| ${c.name} | ${median(runs[0][i].ms).toFixed(0)} | ${ratio.toFixed(2)}${other} | ≤ ${c.budget} ${ok ? 'ok' : 'MISSED'} |`,
  );
});
process.exitCode = failed ? 1 : 0;
