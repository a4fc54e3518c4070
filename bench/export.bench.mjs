// Export benchmark: every format, 10k and 100k generated articles, each run
// in its own process so peak RSS (maxRSS) belongs to that run alone.
//   npm run build                           # the benchmark imports dist/output
//   node bench/export.bench.mjs [--formats csv,xlsx] [--sizes 10000,100000]
// Prints a Markdown table for bench/README.md; exits 1 when a budget is missed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'out');
const EXT = {
  json: 'json',
  jsonl: 'jsonl',
  csv: 'csv',
  tsv: 'tsv',
  xml: 'xml',
  rss: 'rss',
  xlsx: 'xlsx',
  parquet: 'parquet',
};
const THROUGHPUT = {
  jsonl: 5000,
  json: 5000,
  csv: 5000,
  tsv: 5000,
  rss: 5000,
  xml: 3000,
  parquet: 2500,
  xlsx: 1200,
};
const MEMORY_MB = 300;

async function child(format, n) {
  const { exportRecords } = await import('../dist/output/index.js');
  const { articlePages } = await import('./export-articles.mjs');
  const path = join(outDir, `export-${n}.${EXT[format]}`);
  const start = process.hrtime.bigint();
  const result = await exportRecords(articlePages(n), {
    format,
    output: path,
    stdout: process.stdout,
    stdoutIsTTY: false,
    kind: 'article',
    title: 'bench',
    warn: () => undefined,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const bytes = statSync(path).size;
  rmSync(path);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({ format, n, seconds, records: result.records, bytes, peakMb }) + '\n',
  );
}

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1].split(',') : fallback;
}

async function main() {
  if (process.argv[2] === '--child') return child(process.argv[3], Number(process.argv[4]));
  mkdirSync(outDir, { recursive: true });
  const formats = arg('--formats', Object.keys(EXT));
  const sizes = arg('--sizes', ['10000', '100000']).map(Number);
  const rows = [];
  let failed = false;
  for (const format of formats) {
    const byN = {};
    for (const n of sizes) {
      const run = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', format, String(n)],
        {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        },
      );
      if (run.status !== 0) {
        console.error(`${format} ${n}: failed\n${run.stderr}`);
        failed = true;
        continue;
      }
      const r = JSON.parse(run.stdout.trim().split('\n').pop());
      byN[n] = r;
      const rate = r.n / r.seconds;
      const okRate = rate >= (THROUGHPUT[format] ?? 0);
      const okMem = r.peakMb < MEMORY_MB;
      if (!okRate || !okMem) failed = true;
      rows.push(
        `| ${format} | ${n.toLocaleString('en')} | ${r.seconds.toFixed(1)} | ${Math.round(rate).toLocaleString('en')} ${okRate ? '' : '**(budget ' + THROUGHPUT[format] + ')**'} | ${Math.round(r.peakMb)} ${okMem ? '' : '**over**'} | ${(r.bytes / 1e6).toFixed(1)} MB |`,
      );
      console.error(rows.at(-1));
    }
    const small = byN[Math.min(...sizes)];
    const large = byN[Math.max(...sizes)];
    if (small && large && large.peakMb > small.peakMb * 1.3) {
      rows.push(
        `| ${format} | memory not flat: ${Math.round(small.peakMb)} → ${Math.round(large.peakMb)} MB | | | | |`,
      );
      failed = true;
    }
  }
  console.log('| format | articles | seconds | articles/s | peak RSS MB | output |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  process.exitCode = failed ? 1 : 0;
}

await main();
