/**
 * The mock server under load, as a user runs it: `node bin/news.js mock serve`
 * in its own process (build first: `npm run build`), driven from this process
 * over loopback by 16 keep-alive connections (undici), each sending its next
 * search as soon as the previous answer is read.
 *
 * Budgets (2-core machine): ≥ 1 000 searches/s; < 1 GB resident with 100 000
 * articles. Targets:
 * - `committed fixtures`: `mock serve` over the default fixture set;
 * - `100 000 articles`: `mock serve --articles 100000`;
 * - `server only`: the HTTP pipeline (auth, rate limit, metering, headers,
 *   JSON) over a stand-in engine that answers at once; in this process, so
 *   its figure includes the client's own cost.
 * Each spawned target is measured RUNS times, each time in a fresh server
 * (the fixture keys' rate limits would otherwise answer 429 after a minute's
 * worth of requests): 0.5 s of warm-up, then 3 s of load. The lines printed
 * at the end are the figures (the bench table's hz counts whole runs and
 * means nothing here); resident memory is the server's VmRSS after the load
 * and its peak (VmHWM), from /proc. The server's CPU time per search (from
 * /proc/PID/stat) gives its capacity on one whole core, a figure that other
 * work on the machine disturbs much less than the measured rate.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, bench, describe } from 'vitest';
import type { NewsEngine } from '../src/mock/engine-adapter.js';
import type { FixtureStore } from '../src/mock/fixtures/types.js';
import { startMockServer } from '../src/mock/server.js';

const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const CACHE = mkdtempSync(join(tmpdir(), 'news-mock-server-bench-'));
const CONCURRENCY = 16;
const RUNS = 3;
const WARMUP_MS = 500;
const DURATION_MS = 3000;
const NOW = '2026-03-15T12:00:00Z';

// A mix of what the CLI sends: small pages, common filters, a title search, a sort.
const BODIES = [
  { per_page: 10 },
  { 'language.code': 'en', per_page: 10 },
  { title: 'market', per_page: 10 },
  { 'sentiment.overall.polarity': 'positive', 'sort.by': 'sentiment.overall.score', per_page: 10 },
  { 'source.country.code': 'us,gb', is_breaking: 0, per_page: 20 },
  { 'category.id': 'medtop:04000000', page: 2, per_page: 10 },
].map((b) => JSON.stringify(b));
// Professional (12 000/min) and Basic (3 000/min): 15 000 requests per minute and server.
const KEYS = ['api_live_mock_pro', 'api_live_mock_pro', 'api_live_mock_pro', 'api_live_mock_basic'];

interface LoadResult {
  sent: number;
  failed: number;
  seconds: number;
  latencies: number[];
  /** Status and start of the body of the first failure, to tell why. */
  firstFailure: string | undefined;
}

async function load(url: string, ms: number): Promise<LoadResult> {
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000, pipelining: 1 });
  const target = `${url}/v1/news/everything`;
  let sent = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + ms;
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      const i = sent++;
      const t = performance.now();
      const { statusCode, body } = await request(target, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'x-api-key': KEYS[i % KEYS.length]! },
        body: BODIES[i % BODIES.length]!,
      });
      const text = await body.text();
      latencies.push(performance.now() - t);
      if (statusCode !== 200) {
        failed++;
        firstFailure ??= `${statusCode} ${text.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { sent, failed, seconds, latencies, firstFailure };
}

interface Spawned {
  child: ChildProcess;
  url: string;
  startSeconds: number;
}

/** `news mock serve --port 0 …`; resolves with the URL it prints on stdout. */
function serve(args: string[]): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'mock', 'serve', '--port', '0', '--now', NOW, ...args],
    {
      // The request log goes to stderr, one line per request, as for a user; nobody reads it here.
      stdio: ['ignore', 'pipe', 'ignore'],
      // A grown set is kept in the bench's own cache directory, never the user's.
      env: { ...process.env, XDG_CACHE_HOME: CACHE },
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n'))
        resolve({ child, url: out.trim(), startSeconds: (performance.now() - started) / 1000 });
    });
    child.once('exit', (code) => reject(new Error(`mock serve exited with ${code}`)));
  });
}

async function stop(server: Spawned): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** CPU seconds (user + system) a process has used so far (Linux; clock ticks of 100 Hz). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const MB = 1024;
/** VmRSS and VmHWM of a process, in MB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / MB, peak: kb('VmHWM') / MB };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const report: string[] = [];

async function measureSpawned(name: string, args: string[]): Promise<void> {
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  const cpuPerSearch: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let memory = { rss: 0, peak: 0 };
  let startSeconds = 0;
  for (let run = 0; run < RUNS; run++) {
    const server = await serve(args);
    try {
      startSeconds = Math.max(startSeconds, server.startSeconds);
      await load(server.url, WARMUP_MS);
      const cpuBefore = cpuSecondsOf(server.child.pid!);
      const r = await load(server.url, DURATION_MS);
      cpuPerSearch.push((cpuSecondsOf(server.child.pid!) - cpuBefore) / r.sent);
      rates.push(r.sent / r.seconds);
      p50s.push(quantile(r.latencies, 0.5));
      p99s.push(quantile(r.latencies, 0.99));
      failed += r.failed;
      firstFailure ??= r.firstFailure;
      const m = memoryOf(server.child.pid!);
      memory = { rss: Math.max(memory.rss, m.rss), peak: Math.max(memory.peak, m.peak) };
    } finally {
      await stop(server);
    }
  }
  const rate = median(rates);
  report.push(
    `${name}: ${rate.toFixed(0)} searches/s median of ${RUNS} runs ` +
      `(${rates.map((r) => r.toFixed(0)).join(', ')}; budget ≥ 1000: ${rate >= 1000 ? 'met' : 'MISSED'}); ` +
      `latency p50 ${median(p50s).toFixed(1)} ms, p99 ${median(p99s).toFixed(1)} ms; ` +
      `server CPU ${(median(cpuPerSearch) * 1000).toFixed(2)} ms per search ` +
      `(≈ ${(1 / median(cpuPerSearch)).toFixed(0)} searches/s on one whole core); ` +
      `server rss ${memory.rss.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB; ` +
      `ready in ${startSeconds.toFixed(1)} s; non-200: ${failed}` +
      (firstFailure === undefined ? '' : ` (first: ${firstFailure})`),
  );
}

const once = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 };
/** Vitest may call a bench function more than once; each target is measured once (RUNS servers). */
const memo = new Map<string, Promise<void>>();
const measureOnce = (name: string, args: string[]): Promise<void> => {
  let done = memo.get(name);
  if (done === undefined) {
    done = measureSpawned(name, args);
    memo.set(name, done);
  }
  return done;
};

describe('mock server in its own process', () => {
  bench('committed fixtures', () => measureOnce('committed fixtures (2 400 articles)', []), once);
  bench('100 000 articles', () => measureOnce('100 000 articles', ['--articles', '100000']), once);
});

describe('mock server HTTP layer, in this process', () => {
  bench(
    'server only (stand-in engine)',
    async () => {
      if (memo.has('server only')) return;
      memo.set('server only', Promise.resolve());
      const server = await startMockServer({ quiet: true, searchEngine: instantEngine });
      try {
        await load(server.url, WARMUP_MS);
        const r = await load(server.url, DURATION_MS);
        report.push(
          `server only (stand-in engine, client in the same process): ` +
            `${(r.sent / r.seconds).toFixed(0)} searches/s; non-200: ${r.failed}`,
        );
      } finally {
        await server.close();
      }
    },
    once,
  );
});

afterAll(() => {
  for (const line of report) console.log(line);
  rmSync(CACHE, { recursive: true, force: true });
});

/** Answers every search at once with a small fixed page, so only the server's own cost remains. */
function instantEngine(store: FixtureStore): NewsEngine {
  const page = { status: 'ok', page: 1, per_page: 10, results: store.articles.slice(0, 10) };
  const answer = () => ({ body: page, points: 1 });
  return {
    everything: answer,
    headlines: answer,
    story: answer,
    article: answer,
    count: answer,
    trends: answer,
    local: answer,
    entityFeed: answer,
    eventTypes: answer,
    matcher: () => () => true,
  };
}
