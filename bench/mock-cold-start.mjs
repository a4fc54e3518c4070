#!/usr/bin/env node
/**
 * The first thing a newcomer runs is a `--mock` command: its whole life is
 * start-up. Each case is timed against a bare `node -e 0` in paired runs
 * (the command right after the reference, so machine load hits both), and
 * the median of the per-pair ratios is reported, of wall time (the goal) and
 * of CPU time (steadier on a busy machine), with the median peak RSS of the
 * command's process. CPU time and RSS are read by a hook preloaded into both
 * processes alike (`--require`), so no external tool is needed. Budgets
 * `count --mock` ≤ 3× and ≤ 80 MB,
 * `search --mock --title rate --per-page 10 -f json` ≤ 4× and ≤ 80 MB.
 * Needs `npm run build`. Usage: node bench/mock-cold-start.mjs [--runs 15]
 * Exits 1 when a budget is missed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;

const CASES = [
  {
    name: 'news count --mock --language-code en',
    args: [BIN, 'count', '--mock', '--language-code', 'en'],
    budget: 3,
    mb: 80,
  },
  {
    name: 'news search --mock --title rate --per-page 10 -f json',
    args: [BIN, 'search', '--mock', '--title', 'rate', '--per-page', '10', '-f', 'json'],
    budget: 4,
    mb: 80,
  },
];

const dir = mkdtempSync(join(tmpdir(), 'news-cold-'));
const hook = join(dir, 'rss.cjs');
const out = join(dir, 'rss.txt');
// Peak RSS and CPU time of the measured process itself, written as it exits.
writeFileSync(
  hook,
  `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime })); });\n`,
);

function run(args) {
  const env = { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--require ${hook}` };
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const usage = JSON.parse(readFileSync(out, 'utf8'));
  return { ms, cpuMs: usage.cpu / 1000, rssMb: usage.rss / 1024 };
}

let failed = false;
console.log(
  `| command | median ms | node -e 0 ms | wall ratio (median of ${RUNS} pairs) | CPU ratio | peak RSS MB (median) | goal |`,
);
console.log('|---|---|---|---|---|---|---|');
try {
  for (const c of CASES) {
    run(c.args); // warm the file cache
    const ratios = [];
    const cpuRatios = [];
    const ms = [];
    const ref = [];
    const rss = [];
    for (let i = 0; i < RUNS; i++) {
      const a = run(['-e', '0']);
      const b = run(c.args);
      ref.push(a.ms);
      ms.push(b.ms);
      ratios.push(b.ms / a.ms);
      cpuRatios.push(b.cpuMs / a.cpuMs);
      rss.push(b.rssMb);
    }
    const ratio = median(ratios);
    const mb = median(rss);
    const ok = ratio <= c.budget && mb <= c.mb;
    if (!ok) failed = true;
    console.log(
      `| \`${c.name}\` | ${median(ms).toFixed(0)} | ${median(ref).toFixed(0)} | ${ratio.toFixed(2)}× | ${median(cpuRatios).toFixed(2)}× | ${mb.toFixed(0)} | ≤ ${c.budget}×, ≤ ${c.mb} MB${ok ? '' : ' **missed**'} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
