#!/usr/bin/env node
/**
 * The CPU an `--articles` extra costs to make into the table (makeExtras,
 * one thread): what a first `mock serve --articles N` start spends most of
 * its time on (bench/README.md, "The mock at 100,000 articles"). Each process makes
 * N extras three times into fresh tables and prints µs an extra per round:
 * the first round is a start's (code still cold), the third the warm cost.
 * With `--baseline DIR`, DIR's build (its dist/, `npm run build` run there)
 * is measured too, the two processes alternated; medians over the runs.
 *
 * Needs `npm run build` (or `npx tsc -p tsconfig.build.json`).
 * Usage: node bench/mock-extras.mjs [--extras 48800] [--runs 7] [--baseline DIR]
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption, option } from './lib.mjs';

const EXTRAS = numberOption('extras', 48_800);
const RUNS = numberOption('runs', 7);
const BASELINE = option('baseline', undefined);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One process: the three rounds' µs an extra. */
async function child(root, n) {
  const load = (path) => import(new URL(path, `file://${root}/`).href);
  const { makeExtras } = await load('dist/mock/store/extras.js');
  const { ArticleTable } = await load('dist/mock/store/table.js');
  const { ExtraArticles } = await load('dist/mock/fixtures/generate.js');
  const { buildWorld } = await load('dist/mock/fixtures/world.js');
  const extras = new ExtraArticles(buildWorld(7), 7);
  const indexes = Int32Array.from({ length: n }, (_, i) => i);
  const published = Float64Array.from({ length: n }, (_, i) => 1.7e12 - i * 1000);
  const rounds = [];
  for (let r = 0; r < 3; r++) {
    const table = new ArticleTable();
    const start = process.cpuUsage();
    await makeExtras({ seed: 7, indexes, published }, table, extras);
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / n);
  }
  process.stdout.write(`${JSON.stringify(rounds)}\n`);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  const builds = [
    { name: 'this build', root: ROOT },
    ...(BASELINE === undefined ? [] : [{ name: 'baseline', root: resolve(BASELINE) }]),
  ];
  const results = new Map(builds.map((b) => [b.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const build of builds) {
      const out = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', build.root, String(EXTRAS)],
        { encoding: 'utf8' },
      );
      if (out.status !== 0) throw new Error(`${build.name}: ${out.stderr}`);
      results.get(build.name).push(JSON.parse(out.stdout));
    }
  }
  console.log(`makeExtras, ${EXTRAS} extras, one thread: µs of CPU an extra, median of ${RUNS}`);
  console.log('| build | first round (cold) | third round (warm) |');
  console.log('|---|---|---|');
  for (const [name, rounds] of results) {
    const first = median(rounds.map((r) => r[0]));
    const third = median(rounds.map((r) => r[2]));
    console.log(`| ${name} | ${first.toFixed(1)} | ${third.toFixed(1)} |`);
  }
}
