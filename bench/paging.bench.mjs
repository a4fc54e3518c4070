/**
 * Pages in parallel, end to end (build first: `npm run build`). Two figures,
 * each against `news mock serve` in its own process, the export run by the
 * real CLI (`node bin/news.js search --all … -o FILE`), its own process:
 *
 * 1. `--all` over PAGES pages at `--latency MS`: the time at `--concurrency 1`
 *    and at the default, alternated, side by side in one run, median of
 *    RUNS each. Goal: the default ≤ 0.35× the one-page-at-a-time time, with
 *    the same records in the same order (the files are compared byte for byte).
 * 2. The same export while a second mock of the same --seed and --now
 *    publishes 100 articles a second (`--publish-rate 6000`), compared with
 *    the quiet mock's export: articles lost, written twice, and newer than the
 *    run's pinned window (all must be 0); the articles published before the
 *    run began are counted apart (the run rightly writes them).
 *
 *   node bench/paging.bench.mjs [--runs 3] [--latency 200] [--pages 100]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib.mjs';

const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const KEY = 'api_live_mock_pro';
const SEED = '7';
const NOW = '2026-11-20T12:00:00Z';
/** The committed fixture set holds 2,400 articles: `--per-page` is chosen to make PAGES pages. */
const ARTICLES = 2400;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    latency: { type: 'string', default: '200' },
    pages: { type: 'string', default: '100' },
  },
});
const RUNS = Number(values.runs);
const LATENCY = values.latency;
const PAGES = Number(values.pages);
const PER_PAGE = String(Math.ceil(ARTICLES / PAGES));

/** `news mock serve` in its own process; resolves with its URL and a stop function. */
function serve(...extra) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'mock',
      'serve',
      '--port',
      '0',
      '--seed',
      SEED,
      '--now',
      NOW,
      '--latency',
      LATENCY,
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /http:\/\/\S+/.exec(out)?.[0];
      if (url !== undefined) {
        resolve({
          url,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`mock serve exited with ${code}`)));
  });
}

/** One export by the CLI; resolves with its wall time (ms), its --log-file line and its stderr. */
function exportAll(url, out, ...extra) {
  const log = `${out}.log`;
  const args = [
    BIN,
    'search',
    '--base-url',
    url,
    '--api-key',
    KEY,
    '--all',
    '--per-page',
    PER_PAGE,
    '-f',
    'jsonl',
    '-o',
    out,
    '--log-file',
    log,
    ...(extra.includes('-v') ? [] : ['-q']),
    ...extra,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`export exited with ${code}: ${stderr}`));
        return;
      }
      const line = JSON.parse(readFileSync(log, 'utf8').trim().split('\n').at(-1));
      resolve({ ms, line, stderr });
    });
  });
}

const seconds = (ms) => (ms / 1000).toFixed(2);
const records = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

const dir = mkdtempSync(join(tmpdir(), 'news-paging-bench-'));
let failed = false;
try {
  // 1. One page at a time against the default, alternated.
  const quiet = await serve();
  const one = [];
  const auto = [];
  let sameAlways = true;
  let pages;
  let peak = 0;
  let backoffs = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const a = join(dir, `one-${i}.jsonl`);
      const b = join(dir, `auto-${i}.jsonl`);
      one.push((await exportAll(quiet.url, a, '--concurrency', '1')).ms);
      const r = await exportAll(quiet.url, b);
      auto.push(r.ms);
      pages = r.line.pages;
      peak = Math.max(peak, r.line.concurrency ?? 1);
      backoffs += r.line.backoffs ?? 0;
      sameAlways &&= readFileSync(a).equals(readFileSync(b));
    }
  } finally {
    await quiet.stop();
  }
  const ratio = median(auto) / median(one);
  const n = records(join(dir, 'one-0.jsonl')).length;
  console.log(
    `## --all over ${pages} pages (${n} articles, per_page ${PER_PAGE}), mock --latency ${LATENCY}, ${RUNS} runs each\n`,
  );
  console.log('| concurrency | seconds (median) | runs | vs one at a time |');
  console.log('|---|---|---|---|');
  console.log(`| 1 | ${seconds(median(one))} | ${one.map(seconds).join(', ')} | 1.00× |`);
  console.log(
    `| default (peak ${peak}, ${backoffs} back-offs) | ${seconds(median(auto))} | ${auto.map(seconds).join(', ')} | ${ratio.toFixed(2)}× |`,
  );
  console.log(
    `\nsame records in the same order: ${sameAlways ? 'yes (byte-identical files)' : 'NO'}; goal ≤ 0.35×: ${ratio <= 0.35 ? 'met' : 'MISSED'}\n`,
  );
  failed ||= !sameAlways || ratio > 0.35;

  // 2. While the mock publishes 100 articles a second.
  const calm = await serve();
  const busy = await serve('--publish-rate', '6000');
  try {
    const calmFile = join(dir, 'calm.jsonl');
    const busyFile = join(dir, 'busy.jsonl');
    await exportAll(calm.url, calmFile);
    const run = await exportAll(busy.url, busyFile, '-v');
    const pinned = /window pinned at published_at\.end (\S+)/.exec(run.stderr)?.[1];
    if (pinned === undefined)
      throw new Error(`the busy run did not pin its window:\n${run.stderr}`);
    const pin = Date.parse(pinned);
    const baseline = records(calmFile);
    const written = records(busyFile);
    const times = new Map();
    for (const r of written) times.set(r.id, (times.get(r.id) ?? 0) + 1);
    const lost = baseline.filter((r) => !times.has(r.id)).length;
    const twice = [...times.values()].filter((c) => c > 1).length;
    const fixture = new Set(baseline.map((r) => r.id));
    const extra = written.filter((r) => !fixture.has(r.id));
    await exportAll(busy.url, join(dir, 'after.jsonl'), '--limit', '1');
    const newest = records(join(dir, 'after.jsonl'))[0];
    const newer = written.filter((r) => Date.parse(r.published_at) > pin).length;
    console.log(
      `## The same export while the mock publishes 100 articles a second (--publish-rate 6000)\n`,
    );
    console.log(
      '| quiet mock | busy mock | lost | written twice | newer than the window | published before the run (written) | run |',
    );
    console.log('|---|---|---|---|---|---|---|');
    console.log(
      `| ${baseline.length} | ${written.length} | ${lost} | ${twice} | ${newer} | ${extra.length} | ${seconds(run.ms)} s, ${run.line.pages} pages, peak ${run.line.concurrency} at once |`,
    );
    console.log(
      `\nthe window was pinned at published_at.end ${pinned} (the newest article of the first page); the mock went on publishing: its newest article after the run was ${newest.published_at} (id ${newest.id}, ${times.has(newest.id) ? 'WRITTEN' : 'not written'})\n`,
    );
    failed ||= lost > 0 || twice > 0 || newer > 0 || times.has(newest.id);
  } finally {
    await calm.stop();
    await busy.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
