// Export benchmark, issue 5: generated articles are written once to
// bench/out/articles-N.jsonl, then each format is produced from that file by
// the real CLI (`node bin/news.js convert … -o bench/out/x.FORMAT`) in its own
// process, timed with /usr/bin/time -v (wall time and peak RSS of the whole
// process, node start-up included). On the same file in the same run: jq
// (`… | @csv`, the same columns) and DuckDB (`COPY (SELECT * FROM
// read_json(…)) TO 'x.parquet'`, its own node process).
//   npm run bench:export                     # builds dist/, then all formats, 10k and 100k
//   node bench/export.bench.mjs --formats csv,parquet --sizes 10000 --runs 3
//   options: --formats a,b  --sizes n,m  --runs k (default 2, the median is
//   reported)  --no-compare (skip jq and DuckDB; jq runs only with csv, DuckDB
//   only with parquet)
// Prints a Markdown table; exits 1 when a budget is missed. Budgets (issue 5):
// peak RSS < 300 MB at every size and largest ≤ 1.3 × smallest; throughput at
// the largest size (the 100,000; at 10k node's start-up weighs in);
// csv faster than jq and parquet within 1.5× of DuckDB at every size.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
const cli = join(root, 'bin', 'news.js');
const FORMATS = ['json', 'jsonl', 'csv', 'tsv', 'xml', 'rss', 'xlsx', 'parquet'];
const THROUGHPUT = {
  json: 5000,
  jsonl: 5000,
  csv: 5000,
  tsv: 5000,
  rss: 5000,
  xml: 3000,
  parquet: 2500,
  xlsx: 1200,
};
const MEMORY_MB = 300;
const FLAT = 1.3;
const JQ_SLOWER_THAN_CSV = 1; // csv must be faster than jq
const DUCKDB_FACTOR = 1.5; // parquet within 1.5× of DuckDB

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1].split(',') : fallback;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function writeInput(n) {
  const path = join(outDir, `articles-${n}.jsonl`);
  if (existsSync(path)) return path;
  const { article } = await import('./export-articles.mjs');
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp, { highWaterMark: 1 << 20 });
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += JSON.stringify(article(i)) + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  const { renameSync } = await import('node:fs');
  renameSync(tmp, path);
  return path;
}

/** Runs argv under /usr/bin/time -v; stdout to `stdoutPath` when given. */
function timed(argv, stdoutPath) {
  const fd = stdoutPath === undefined ? 'ignore' : openSync(stdoutPath, 'w');
  try {
    const run = spawnSync('/usr/bin/time', ['-v', ...argv], {
      cwd: root,
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    });
    const err = run.stderr ?? '';
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(
      err,
    );
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
    if (run.status !== 0 || !wall || !rss) {
      throw new Error(`${argv.join(' ')} failed (${run.status}):\n${err.slice(-2000)}`);
    }
    const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
    return { seconds, peakMb: Number(rss[1]) / 1024 };
  } finally {
    if (typeof fd === 'number') closeSync(fd);
  }
}

/** jq filter for the same article columns as our csv (from dist/output/columns.js). */
async function jqFilter() {
  const { ARTICLE_COLUMNS } = await import('../dist/output/columns.js');
  const path = (p) => p.map((k) => `.${JSON.stringify(k)}`).join('');
  const cells = ARTICLE_COLUMNS.map((c) => {
    const p = path(c.path);
    switch (c.derive) {
      case 'value':
        return p;
      case 'json':
        return `(${p} | if . == null then null else tojson end)`;
      case 'names':
        return `(${p} | if type == "array" then map(.name // empty) | join("; ") else . end)`;
      default: // 'join'
        return `(${p} | if type == "array" then map(tostring) | join("; ") else . end)`;
    }
  });
  return `[${cells.join(', ')}] | @csv`;
}

function measure(label, runs, fn) {
  const results = [];
  for (let k = 0; k < runs; k++) {
    results.push(fn());
    console.error(
      `  ${label} run ${k + 1}: ${results.at(-1).seconds.toFixed(1)} s, ${Math.round(results.at(-1).peakMb)} MB`,
    );
  }
  return {
    seconds: median(results.map((r) => r.seconds)),
    peakMb: median(results.map((r) => r.peakMb)),
    range: [Math.min(...results.map((r) => r.seconds)), Math.max(...results.map((r) => r.seconds))],
    bytes: results.at(-1).bytes,
  };
}

const fmtN = (x) => Math.round(x).toLocaleString('en');

async function main() {
  mkdirSync(outDir, { recursive: true });
  const formats = arg('--formats', FORMATS);
  const sizes = arg('--sizes', ['10000', '100000']).map(Number);
  const runs = Number(arg('--runs', ['2'])[0]);
  const compare = !process.argv.includes('--no-compare');
  const inputs = {};
  for (const n of sizes) {
    inputs[n] = await writeInput(n);
    console.error(`input ${inputs[n]}: ${(statSync(inputs[n]).size / 1e6).toFixed(0)} MB`);
  }
  const rows = [];
  const misses = [];
  const results = {};
  for (const format of formats) {
    results[format] = {};
    for (const n of sizes) {
      const out = join(outDir, `x.${format}`);
      const r = measure(`${format} ${n}`, runs, () => {
        const t = timed([process.execPath, cli, 'convert', inputs[n], '-o', out, '--quiet']);
        t.bytes = statSync(out).size;
        rmSync(out);
        return t;
      });
      results[format][n] = r;
    }
  }
  if (compare) {
    const filter = await jqFilter();
    results.jq = {};
    results.duckdb = {};
    for (const n of sizes) {
      if (!formats.includes('csv')) break;
      const out = join(outDir, 'jq.csv');
      results.jq[n] = measure(`jq ${n}`, runs, () => {
        const t = timed(['/usr/bin/jq', '-r', filter, inputs[n]], out);
        t.bytes = statSync(out).size;
        rmSync(out);
        return t;
      });
    }
    for (const n of sizes) {
      if (!formats.includes('parquet')) break;
      const pq = join(outDir, 'duckdb.parquet');
      results.duckdb[n] = measure(`duckdb ${n}`, runs, () => {
        const t = timed([process.execPath, join(here, 'duckdb-copy.mjs'), inputs[n], pq]);
        t.bytes = statSync(pq).size;
        rmSync(pq);
        return t;
      });
    }
  }
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  for (const [tool, byN] of Object.entries(results)) {
    for (const n of sizes) {
      const r = byN[n];
      if (r === undefined) continue;
      const rate = n / r.seconds;
      const budget = THROUGHPUT[tool];
      const notes = [];
      if (budget !== undefined && n === large && rate < budget) {
        notes.push(`**below ${fmtN(budget)}/s**`);
        misses.push(`${tool} ${n}: ${fmtN(rate)}/s < ${budget}/s`);
      }
      if (budget !== undefined && r.peakMb >= MEMORY_MB) {
        notes.push(`**over ${MEMORY_MB} MB**`);
        misses.push(`${tool} ${n}: ${Math.round(r.peakMb)} MB`);
      }
      if (n === large && n !== small && budget !== undefined && byN[small]) {
        const ratio = r.peakMb / byN[small].peakMb;
        notes.push(`memory ×${ratio.toFixed(2)}${ratio > FLAT ? ' **not flat**' : ''}`);
        if (ratio > FLAT) misses.push(`${tool}: memory ×${ratio.toFixed(2)}`);
      }
      if (tool === 'csv' && results.jq?.[n]) {
        const ratio = results.jq[n].seconds / r.seconds;
        notes.push(`${ratio.toFixed(2)}× jq's speed`);
        if (ratio <= JQ_SLOWER_THAN_CSV) misses.push(`csv ${n}: not faster than jq`);
      }
      if (tool === 'parquet' && results.duckdb?.[n]) {
        const ratio = r.seconds / results.duckdb[n].seconds;
        notes.push(`${ratio.toFixed(2)}× DuckDB's time`);
        if (ratio > DUCKDB_FACTOR) misses.push(`parquet ${n}: ${ratio.toFixed(2)}× DuckDB`);
      }
      const range = `${r.range[0].toFixed(1)}–${r.range[1].toFixed(1)}`;
      rows.push(
        `| ${tool} | ${fmtN(n)} | ${r.seconds.toFixed(1)} (${range}) | ${fmtN(rate)} | ${Math.round(r.peakMb)} | ${(r.bytes / 1e6).toFixed(0)} MB | ${notes.join('; ')} |`,
      );
    }
  }
  console.log(`runs per figure: ${runs} (median; range in brackets)\n`);
  console.log('| tool | articles | seconds | articles/s | peak RSS MB | output | vs budget |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (misses.length > 0) console.log(`\nmissed: ${misses.join('; ')}`);
  process.exitCode = misses.length > 0 ? 1 : 0;
}

await main();
