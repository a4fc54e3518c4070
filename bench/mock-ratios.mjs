#!/usr/bin/env node
/**
 * The mock: each figure against its yardstick, measured side by
 * side in one run, medians (bench/README.md, "The mock at 100,000 articles").
 *
 * 1. start: `news mock serve --articles N` until its first answer to a
 *    filtered count, against `node -e 0` run just before each start: with
 *    the grown set kept by an earlier start (src/mock/store/grown-cache.ts),
 *    and a first start (none kept).
 * 2. search: the same server under five-filter searches (400 different ones
 *    in turn, bench/mock-searches.mjs; default per_page and sort) from a
 *    load generator in its own process (bench/mock-load.mjs, C connections),
 *    against a no-work `node:http` server in its own process sending the
 *    same answer bytes (bench/mock-nowork.mjs), the two alternated.
 * 3. cli: `news count --mock` and `news search --mock` (one page) against
 *    `node -e 0` in pairs (bench/lib.mjs, `pairedWithNode`); with
 *    `--instructions`, also their instruction counts (callgrind), which the
 *    machine's load does not change.
 *
 * `--baseline DIR` measures another build (DIR/bin/news.js, e.g. `git
 * archive` of an older commit with `npm run build` run there) the same way,
 * interleaved with this one. The bench keeps its grown sets in a directory
 * of its own (XDG_CACHE_HOME), never the user's.
 *
 * Needs `npm run build`; Linux (/proc). Prints a Markdown table; exits 1
 * when a goal is missed (by this build).
 * Usage: node bench/mock-ratios.mjs [--only start,search,cli] [--articles 100000]
 *        [--starts 3] [--rounds 3] [--seconds 5] [--connections 10] [--runs 15]
 *        [--instructions] [--baseline DIR]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BIN,
  median,
  numberOption,
  option,
  pairedWithNode,
  procCpuSeconds,
  procMemory,
  timeNode,
} from './lib.mjs';
import { fiveFilterSearches } from './mock-searches.mjs';

const ONLY = option('only', 'start,search,cli').split(',');
const ARTICLES = numberOption('articles', 100_000);
const STARTS = numberOption('starts', 3);
const ROUNDS = numberOption('rounds', 3);
const SECONDS = numberOption('seconds', 5);
const CONNECTIONS = numberOption('connections', 10);
const RUNS = numberOption('runs', 15);
/** `--instructions`: also count the --mock commands' instructions with callgrind (slow: ~1 min). */
const INSTRUCTIONS = process.argv.includes('--instructions');
const BASELINE = option('baseline', undefined);
const NOW = '2026-03-15T12:00:00Z';
const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'news-mock-ratios-'));

/** The builds measured: this one, and the baseline's. */
const BUILDS = [
  { name: '', bin: BIN },
  ...(BASELINE === undefined
    ? []
    : [{ name: ' (baseline)', bin: join(resolve(BASELINE), 'bin', 'news.js') }]),
];

/** The bench's own cache directory: the user's is left alone. */
const CACHE = join(dir, 'cache');
const ENV = { ...process.env, XDG_CACHE_HOME: CACHE };

/** A child process that prints its URL on stdout; resolves once it has. */
function spawnServer(args, env = ENV) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
      if (out.includes('\n')) resolve({ child, url: out.trim(), started });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function stop(server) {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

const mockServe = (bin) =>
  spawnServer([
    bin,
    'mock',
    'serve',
    '--port',
    '0',
    '--now',
    NOW,
    '--no-rate-limit',
    '--articles',
    String(ARTICLES),
  ]);

/** GET or POST over node:http (no client library to warm up): status, headers, body. */
function call(url, { method = 'GET', body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { 'x-api-key': 'api_live_mock_pro', ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const rows = [];
let missed = false;
function report(build, figure, measured, yardstick, ratio, goal, ok, command) {
  if (build.name === '') missed ||= !ok;
  const verdict = build.name === '' ? (ok ? ' met' : ' **missed**') : '';
  rows.push(
    `| ${figure}${build.name} | ${measured} | ${yardstick} | **${ratio}** | ${goal}${verdict} | \`${command}\` |`,
  );
}
const list = (xs, digits = 2) => xs.map((x) => x.toFixed(digits)).join(', ');

/** 1. Until the first answer to a filtered count, each start after a `node -e 0`. */
async function startFigure(label, prepare) {
  const runs = BUILDS.map(() => ({ ms: [], ref: [], ratios: [], cpu: [] }));
  for (let i = 0; i < STARTS; i++) {
    for (const [b, build] of BUILDS.entries()) {
      prepare?.();
      const a = timeNode(['-e', '0']);
      const server = await mockServe(build.bin);
      try {
        const answer = await call(
          `${server.url}/v1/news/count?language.code=en&sentiment.overall.polarity=positive`,
        );
        if (answer.status !== 200) throw new Error(`count answered ${answer.status}`);
        const ms = performance.now() - server.started;
        const r = runs[b];
        r.cpu.push(procCpuSeconds(server.child.pid));
        r.ref.push(a);
        r.ms.push(ms);
        r.ratios.push(ms / a);
      } finally {
        await stop(server);
      }
    }
  }
  for (const [b, build] of BUILDS.entries()) {
    const r = runs[b];
    const ratio = median(r.ratios);
    report(
      build,
      `\`mock serve --articles ${ARTICLES}\`: first answer to a filtered count, ${label}`,
      `${median(r.ms).toFixed(0)} ms (${list(r.ms, 0)}); ${median(r.cpu).toFixed(2)} s of CPU (all threads)`,
      `\`node -e 0\` ${median(r.ref).toFixed(0)} ms`,
      `${ratio.toFixed(1)}×`,
      '≤ 25×',
      ratio <= 25,
      `node bench/mock-ratios.mjs --only start --starts ${STARTS}`,
    );
  }
}

/** The load generator (its own process) against `url`: its JSON line. */
function load(url, bodiesFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        here('./mock-load.mjs'),
        `${url}/v1/news/everything`,
        bodiesFile,
        '--connections',
        String(CONNECTIONS),
        '--seconds',
        String(SECONDS),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`)),
    );
  });
}

/** Asks each search once: the answers (request body, status, headers, body) and their results. */
async function record(url, searches) {
  const answers = [];
  let results = 0;
  for (const body of searches) {
    const a = await call(`${url}/v1/news/everything`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    if (a.status !== 200)
      throw new Error(`search answered ${a.status}: ${a.body.toString().slice(0, 200)}`);
    results += JSON.parse(a.body.toString()).results.length;
    const headers = Object.fromEntries(
      Object.entries(a.headers).filter(
        ([k]) => !['connection', 'keep-alive', 'date', 'transfer-encoding'].includes(k),
      ),
    );
    answers.push([body, a.status, headers, a.body.toString('base64')]);
  }
  return { answers, results };
}

/** 2. Five-filter searches, 400 in turn: each mock's rate against a no-work server's. */
async function searchFigure() {
  const searches = fiveFilterSearches(400, NOW).map((b) => JSON.stringify(b));
  const bodiesFile = join(dir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(searches));
  const mocks = [];
  let nowork;
  try {
    for (const build of BUILDS) mocks.push(await mockServe(build.bin));
    // Every search once (the first pass, not measured): the answers the no-work server sends back.
    const recorded = await record(mocks[0].url, searches);
    for (const mock of mocks.slice(1)) await record(mock.url, searches);
    const bytes = recorded.answers.reduce((n, a) => n + Buffer.byteLength(a[3], 'base64'), 0);
    const answersFile = join(dir, 'answers.json');
    writeFileSync(answersFile, JSON.stringify(recorded.answers));
    nowork = await spawnServer([here('./mock-nowork.mjs'), answersFile]);
    const targets = [...mocks.map((m, b) => ({ server: m, b })), { server: nowork, b: -1 }];
    const rate = new Map(targets.map((t) => [t.b, []]));
    const cpu = new Map(targets.map((t) => [t.b, []]));
    const clientCpu = [];
    let failed = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // Each round in another order, so that no server always meets the same moment.
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      for (const { server, b } of order) {
        const before = procCpuSeconds(server.child.pid);
        const result = await load(server.url, bodiesFile);
        if (b >= 0) failed += result.failed;
        rate.get(b).push(result.requests / result.seconds);
        cpu.get(b).push((procCpuSeconds(server.child.pid) - before) / result.requests);
        if (b === -1) clientCpu.push(result.cpuSeconds / result.requests);
      }
    }
    const noworkRates = rate.get(-1);
    for (const [b, build] of BUILDS.entries()) {
      const m = procMemory(mocks[b].child.pid);
      // Each round's rate against the no-work server's in the same round.
      const ratios = rate.get(b).map((x, r) => x / noworkRates[r]);
      const ratio = median(ratios);
      report(
        build,
        `the same server: five-filter searches (400 in turn; on average ${(recorded.results / 400).toFixed(1)} results, ${(bytes / 400 / 1024).toFixed(0)} KB an answer), ${CONNECTIONS} connections, ${SECONDS} s`,
        `${median(rate.get(b)).toFixed(0)} req/s (${list(rate.get(b), 0)}); ${(median(cpu.get(b)) * 1000).toFixed(2)} ms of server CPU a search; RSS ${m.rss.toFixed(0)} MB, peak ${m.peak.toFixed(0)} MB; non-200: ${failed}`,
        `no-work \`node:http\` server, same answers: ${median(noworkRates).toFixed(0)} req/s (${list(noworkRates, 0)}); ${(median(cpu.get(-1)) * 1000).toFixed(2)} ms of its CPU a request (the load generator: ${(median(clientCpu) * 1000).toFixed(2)} ms)`,
        `${ratio.toFixed(2)}×`,
        '≥ 0.25×',
        ratio >= 0.25 && failed === 0,
        `node bench/mock-ratios.mjs --only search --rounds ${ROUNDS}`,
      );
    }
  } finally {
    for (const mock of mocks) await stop(mock);
    if (nowork) await stop(nowork);
  }
}

/**
 * Instructions `node ARGS` executes (valgrind's callgrind, every thread):
 * a count the machine's load does not change, for comparing builds. Null
 * without valgrind.
 */
function instructions(args, env) {
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...args],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const m = /Collected : (\d+)/.exec(r.stderr ?? '');
  return m ? Number(m[1]) : null;
}

/** 3. The in-process mock's one-shot commands against `node -e 0`, the builds alternated. */
function cliFigures() {
  const cases = [
    ['news count --mock --language-code en', ['count', '--mock', '--language-code', 'en'], 2.0],
    [
      'news search --mock --title rate --per-page 10 -f json',
      ['search', '--mock', '--title', 'rate', '--per-page', '10', '-f', 'json'],
      2.5,
    ],
  ];
  const env = { ...ENV, NO_COLOR: '1' };
  const reference = INSTRUCTIONS ? instructions(['-e', '0'], env) : null;
  for (const [name, args, goal] of cases) {
    const runs = pairedWithNode(
      BUILDS.map((build) => [build.bin, ...args]),
      { runs: RUNS, env },
    );
    for (const [b, build] of BUILDS.entries()) {
      const r = runs[b];
      const ratio = median(r.ratios);
      const counted = reference === null ? null : instructions([build.bin, ...args], env);
      const counts =
        counted === null || reference === null
          ? ''
          : `; ${(counted / 1e6).toFixed(0)}M instructions, ${(counted / reference).toFixed(2)}× \`node -e 0\`'s ${(reference / 1e6).toFixed(0)}M`;
      report(
        build,
        `\`${name}\``,
        `${median(r.ms).toFixed(0)} ms${counts}`,
        `\`node -e 0\` ${median(r.ref).toFixed(0)} ms`,
        `${ratio.toFixed(2)}×`,
        `≤ ${goal}×`,
        ratio <= goal,
        `node bench/mock-ratios.mjs --only cli --runs ${RUNS}${INSTRUCTIONS ? ' --instructions' : ''}`,
      );
    }
  }
}

try {
  if (ONLY.includes('start')) {
    // The grown set made by one start first (not measured), then read by each measured start.
    for (const build of BUILDS) {
      const made = await mockServe(build.bin);
      await call(`${made.url}/v1/news/count?language.code=en`);
      await stop(made);
    }
    await startFigure('its grown set kept from an earlier start');
    await startFigure('a first start (no grown set kept)', () =>
      rmSync(CACHE, { recursive: true, force: true }),
    );
  }
  if (ONLY.includes('search')) await searchFigure();
  if (ONLY.includes('cli')) cliFigures();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('| figure | measured (median) | yardstick (median) | ratio | goal | command |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
process.exitCode = missed ? 1 : 0;
