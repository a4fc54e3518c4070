// The DuckDB load, side by side with DuckDB's own reader (bench/README.md,
// "Databases"): `news convert FILE -o duckdb:FRESH` of N API-shaped articles
// (bench/api-articles.mjs; the CLI, so the table and its six child tables)
// against `CREATE TABLE … AS SELECT * FROM read_json_auto(…)` of the same
// file (bench/db-duckdb-ctas.mjs). Whole processes under /usr/bin/time,
// alternated, `--runs` rounds; the figure is the median of the per-round
// ratios of wall time, with the CPU time (user + sys) of each side beside it,
// which a machine busy with other work changes less. With `--memory N`, the
// peak memory of `news convert` of N records into DuckDB against the same
// records into a JSONL file.
//
// `--library` times the destination library through bench/db-load-run.mjs
// (batches of 10,000) instead of the CLI.
//
//   npm run build && node bench/db-duckdb.mjs [--articles 20000] [--runs 3] [--memory 100000] [--library]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiArticles } from './api-articles.mjs';
import { BIN, median, numberOption } from './lib.mjs';

const articles = numberOption('articles', 20_000);
const runs = numberOption('runs', 3);
const memory = numberOption('memory', 0);

/** `node ARGS` under /usr/bin/time: wall and CPU seconds, peak MB; throws on a failure. */
function timed(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + sys, peakMB: kb / 1024 };
}

const fresh = (file) => {
  for (const f of [file, `${file}.wal`, `${file}.tmp`]) rmSync(f, { recursive: true, force: true });
  return file;
};
const convert = (input, output) => timed([BIN, 'convert', input, '-o', output, '--quiet']);
/** `--library`: the destination library through bench/db-load-run.mjs instead of the CLI. */
const library = process.argv.includes('--library');
const load = (input, file) =>
  library
    ? timed(['bench/db-load-run.mjs', `duckdb:${file}`, input])
    : convert(input, `duckdb:${file}`);
const list = (xs, digits = 2) => xs.map((x) => x.toFixed(digits)).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'news-bench-duckdb-'));
try {
  if (runs > 0) {
    const jsonl = await apiArticles(articles);
    const ours = [];
    const reference = [];
    for (let i = 0; i < runs; i++) {
      reference.push(
        timed(['bench/db-duckdb-ctas.mjs', jsonl, fresh(join(dir, 'reference.duckdb'))]),
      );
      ours.push(load(jsonl, fresh(join(dir, 'ours.duckdb'))));
    }
    const wall = ours.map((o, i) => o.wall / reference[i].wall);
    const cpu = ours.map((o, i) => o.cpu / reference[i].cpu);
    const side = (name, xs) =>
      `  ${name}  wall median ${median(xs.map((x) => x.wall)).toFixed(2)} s (${list(xs.map((x) => x.wall))}), CPU median ${median(xs.map((x) => x.cpu)).toFixed(2)} s (${list(xs.map((x) => x.cpu))}), peak ${list(
        xs.map((x) => x.peakMB),
        0,
      )} MB`;
    console.log(`DuckDB load of ${articles} articles (${runs} rounds)`);
    console.log(side('reference: CREATE TABLE AS read_json_auto', reference));
    console.log(side('news convert -o duckdb: (+ 6 child tables)', ours));
    console.log(`  ratio, wall (median of rounds): ${median(wall).toFixed(2)}x  ${list(wall)}`);
    console.log(`  ratio, CPU (median of rounds): ${median(cpu).toFixed(2)}x  ${list(cpu)}`);
  }
  if (memory > 0) {
    const big = await apiArticles(memory);
    const db = load(big, fresh(join(dir, 'big.duckdb')));
    const file = convert(big, join(dir, 'copy.jsonl'));
    console.log(
      `peak memory, news convert of ${memory} records: into DuckDB ${db.peakMB.toFixed(0)} MB (${db.wall.toFixed(1)} s, CPU ${db.cpu.toFixed(1)} s); into JSONL ${file.peakMB.toFixed(0)} MB; ratio ${(db.peakMB / file.peakMB).toFixed(2)}x`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
