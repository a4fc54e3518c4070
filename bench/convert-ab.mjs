// Builds of the CLI side by side on one convert: interleaved rounds (one run
// of each build, then the next round) of `/usr/bin/time node DIR/bin/news.js
// convert IN -o bench/out/ab.FORMAT --quiet`, the medians of wall and CPU
// seconds (user + system, all threads). For "what each change bought":
// each commit unpacked with `git archive` into its own directory, this
// checkout's node_modules linked there, `npm run build` run.
//
//   node bench/convert-ab.mjs --format csv --runs 5 --input bench/out/api-7-20000.jsonl DIR…
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption, option } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const format = option('format', 'csv');
const runs = numberOption('runs', 5);
const input = option('input', join(here, 'out', 'api-7-20000.jsonl'));
const dirs = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
if (dirs.length === 0)
  throw new Error('usage: node bench/convert-ab.mjs [--format F] [--runs N] [--input FILE] DIR…');
mkdirSync(join(here, 'out'), { recursive: true });
const out = join(here, 'out', `ab.${format}`);
const results = new Map(dirs.map((d) => [d, []]));
for (let k = 0; k < runs; k++) {
  for (const dir of dirs) {
    const bin = join(resolve(dir), 'bin', 'news.js');
    const run = spawnSync(
      '/usr/bin/time',
      ['-f', '%e %U %S', process.execPath, bin, 'convert', input, '-o', out, '--quiet'],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`${dir}: ${run.stderr}`);
    const [wall, user, system] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    results.get(dir).push({ wall, cpu: user + system });
  }
}
console.log(`| build | ${format}: wall s | CPU s | CPU s of each round |`);
console.log('|---|---|---|---|');
for (const [dir, rs] of results) {
  const cpu = rs.map((r) => r.cpu);
  console.log(
    `| ${dir} | ${median(rs.map((r) => r.wall)).toFixed(2)} | ${median(cpu).toFixed(2)} | ${cpu.map((c) => c.toFixed(2)).join(' ')} |`,
  );
}
