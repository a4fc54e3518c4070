// The DuckDB load, side by side with DuckDB's own reader (bench/README.md,
// "Databases"): N API-shaped articles (bench/api-articles.mjs) into a fresh
// file with the six child tables through the destination library
// (bench/db-load-run.mjs: batches of 10,000, one transaction each), against
// `CREATE TABLE … AS SELECT * FROM read_json_auto(…)` of the same file
// (bench/db-duckdb-ctas.mjs). Whole processes, alternated, `--runs` rounds;
// the figure is the median of the per-round ratios. With `--memory N`, one
// more load of N records and its peak memory.
//
//   npm run build && node bench/db-duckdb.mjs [--articles 20000] [--runs 3] [--memory 100000]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiArticles } from './api-articles.mjs';
import { BIN, median, numberOption, timeNode } from './lib.mjs';

const articles = numberOption('articles', 20_000);
const runs = numberOption('runs', 3);
const memory = numberOption('memory', 0);

const jsonl = await apiArticles(articles);
const dir = mkdtempSync(join(tmpdir(), 'news-bench-duckdb-'));
try {
  const ours = [];
  const reference = [];
  const ratios = [];
  for (let i = 0; i < runs; i++) {
    const file = join(dir, `ours-${i}.duckdb`);
    const a = timeNode(['bench/db-duckdb-ctas.mjs', jsonl, join(dir, 'reference.duckdb')]);
    const b = process.argv.includes('--library')
      ? timeNode(['bench/db-load-run.mjs', `duckdb:${file}`, jsonl])
      : timeNode([BIN, 'convert', jsonl, '-o', `duckdb:${file}`, '--quiet']);
    rmSync(file, { force: true });
    reference.push(a);
    ours.push(b);
    ratios.push(b / a);
  }
  console.log(`DuckDB load of ${articles} articles (${runs} rounds)`);
  console.log(
    `  reference: CREATE TABLE AS read_json_auto  median ${median(reference).toFixed(0)} ms  ${reference.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `  news library (+ 6 child tables)  median ${median(ours).toFixed(0)} ms  ${ours.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `  ratio (median of rounds): ${median(ratios).toFixed(2)}x  ${ratios.map((x) => x.toFixed(2)).join(' ')}`,
  );
  if (memory > 0) {
    const big = await apiArticles(memory);
    const run = spawnSync(
      process.execPath,
      ['bench/db-load-run.mjs', `duckdb:${join(dir, 'big.duckdb')}`, big],
      {
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(run.stderr);
    const load = JSON.parse(run.stdout);
    console.log(
      `peak memory, ${memory} records into DuckDB: ${load.peakMB.toFixed(0)} MB (${(load.ms / 1000).toFixed(1)} s)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
