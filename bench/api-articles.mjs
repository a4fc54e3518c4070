// API-shaped articles for the export and convert benchmarks: made
// by the mock's own fixture generator (the build's dist/mock/fixtures/), so
// every field the service sends is there, with its nesting: 35 top-level
// fields (63 CSV columns), entities with their sentiment and links,
// categories, topics, industries, locations, media, translations, summary.
//
//   node bench/api-articles.mjs [--articles 20000] [--seed 7]   # writes bench/out/api-7-20000.jsonl
//   node bench/api-articles.mjs --check                          # compares the shape with the mock's answers
//
// Why the generator and not `news mock serve --articles N` + `news search
// --all -f jsonl`: the server's `--articles` extras are its load-test rows,
// made with short bodies (~4.5 KB of JSON against ~6.2 KB for a full
// article), and only its 2,400 base articles are full ones. The generator's
// `LiveArticles` (what the mock publishes with `--publish-rate`) makes full
// articles, any number, each from its own random stream (seed, id): ~6.25 KB
// each, 125 MB at 20k, as measured when they were introduced. The mock sends an article as
// `JSON.stringify` of the generator's object (src/mock/store/article-json.ts),
// which is what this writes, one per line; `--check` draws a page from the
// mock and compares every article's fields, nesting and value types with
// these.
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'out');
/** Ids and dates as the service gives them: ids grow with time, one article a minute. */
const FIRST_ID = 800_000_000;
const FIRST_MS = Date.UTC(2025, 0, 1);

/** The generator, from the build (`npm run build` first). */
async function generator(seed) {
  const { LiveArticles } = await import('../dist/mock/fixtures/generate.js');
  const live = new LiveArticles(seed);
  return (i) => live.make(FIRST_ID + i, new Date(FIRST_MS + i * 60_000));
}

/**
 * `n` records of `make(i)` as JSON Lines at `path`, unless it is there
 * already: written beside it and renamed, so a run stopped midway leaves no
 * corpus that looks whole.
 */
export async function writeCorpus(path, n, make) {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp, { highWaterMark: 1 << 20 });
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += `${JSON.stringify(make(i))}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  renameSync(tmp, path);
  return path;
}

/** The path of the corpus of `n` articles for `seed`, written once (bench/out/ is git-ignored). */
export async function apiArticles(n, seed = 7) {
  const path = join(outDir, `api-${seed}-${n}.jsonl`);
  if (existsSync(path)) return path;
  return writeCorpus(path, n, await generator(seed));
}

/** Every path to a scalar in `v`, with the scalar's type (array items under `[]`). */
function shape(v, prefix, into) {
  if (Array.isArray(v)) for (const x of v) shape(x, `${prefix}[]`, into);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) shape(x, prefix === '' ? k : `${prefix}.${k}`, into);
  } else into.add(`${prefix}: ${v === null ? 'null' : typeof v}`);
  return into;
}

/** Draws 500 articles from the in-process mock and compares their shape with 500 of ours. */
async function check(seed) {
  const { spawnSync } = await import('node:child_process');
  const { BIN } = await import('./lib.mjs');
  const run = spawnSync(
    process.execPath,
    [BIN, 'search', '--mock', '--per-page', '100', '--limit', '500', '-f', 'jsonl'],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  if (run.status !== 0) throw new Error(`news search --mock failed: ${run.stderr}`);
  const served = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const make = await generator(seed);
  const ours = Array.from({ length: served.length }, (_, i) => make(i));
  const theirs = new Set();
  const mine = new Set();
  for (const a of served) shape(a, '', theirs);
  for (const a of ours) shape(a, '', mine);
  const missing = [...theirs].filter((p) => !mine.has(p));
  const extra = [...mine].filter((p) => !theirs.has(p));
  const keys = (list) => [...new Set(list.flatMap((a) => Object.keys(a)))].join(',');
  console.log(`served: ${served.length} articles, ${theirs.size} field paths and types`);
  console.log(`ours:   ${ours.length} articles, ${mine.size} field paths and types`);
  console.log(`top-level fields alike and in the same order: ${keys(served) === keys(ours)}`);
  console.log(`only in the mock's answers: ${missing.join('; ') || 'none'}`);
  console.log(`only in ours: ${extra.join('; ') || 'none'}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seed = numberOption('seed', 7);
  if (process.argv.includes('--check')) await check(seed);
  else console.log(await apiArticles(numberOption('articles', 20_000), seed));
}
