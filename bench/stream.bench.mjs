/**
 * `news stream` end to end (build first: `npm run build`), three figures:
 *
 * 1. Throughput: N generated fixture articles are indexed in an in-process
 *    mock, then the real CLI (`node bin/news.js stream`, its own process,
 *    stdout a pipe to this one) replays them with --last-event-id: the rate
 *    from its first line to its last, full articles, jsonl. Goal ≥ 5,000/s.
 * 2. Latency: with the CLI streaming live, one article is indexed every
 *    LATENCY_GAP_MS; the time from `indexArticles` to its line on the CLI's
 *    stdout, median and p95 over LATENCY_SAMPLES. Goal: median < 50 ms.
 * 3. 200 idle streams: `news mock serve --time-scale 0.1` (heartbeats every
 *    1.5 s) in its own process holds 200 open SSE streams from this process;
 *    its RSS and CPU (from /proc) over IDLE_MS. Goal: flat.
 *
 *   node bench/stream.bench.mjs [--transport sse|ws] [--articles N]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { LiveArticles } from '../dist/mock/fixtures/generate.js';
import { maxArticleId } from '../dist/mock/article-intake.js';
import { startMockServer } from '../dist/mock/server.js';

const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const KEY = 'api_live_mock_pro';
const LATENCY_SAMPLES = 100;
const LATENCY_GAP_MS = 20;
const IDLE_STREAMS = 200;
const IDLE_MS = 20_000;

const { values } = parseArgs({
  options: {
    transport: { type: 'string', default: 'sse' },
    articles: { type: 'string', default: '20000' },
  },
});
const transport = values.transport;
const N = Number(values.articles);

function cli(args, env = {}) {
  const child = spawn(
    'node',
    [BIN, 'stream', '--api-key', KEY, '--transport', transport, ...args],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return child;
}

/** Calls `onLine(line, now)` for each line the child writes. */
function lines(child, onLine) {
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const now = performance.now();
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const line of parts) onLine(line, now);
  });
}

async function throughput() {
  const server = await startMockServer({ quiet: true });
  const live = new LiveArticles(7);
  const first = maxArticleId(server.store) + 1;
  const now = server.clock.now();
  for (let i = 0; i < N; i += 1000) {
    const batch = [];
    for (let id = first + i; id < first + Math.min(N, i + 1000); id++)
      batch.push(live.make(id, now));
    server.indexArticles(batch);
  }
  const child = cli([
    '--base-url',
    server.url,
    '--last-event-id',
    String(first - 1),
    '--max-events',
    String(N),
  ]);
  let count = 0;
  let bytes = 0;
  let t0 = 0;
  let t1 = 0;
  lines(child, (line, at) => {
    if (count === 0) t0 = at;
    count++;
    bytes += line.length + 1;
    t1 = at;
  });
  const code = await new Promise((r) => child.on('close', r));
  await server.close();
  const seconds = (t1 - t0) / 1000;
  return { code, count, rate: (count - 1) / seconds, seconds, mb: bytes / 1e6 };
}

async function latency() {
  const server = await startMockServer({ quiet: true });
  const live = new LiveArticles(11);
  const child = cli(['--base-url', server.url, '--fields', 'id']);
  const indexedAt = new Map();
  const samples = [];
  lines(child, (line, at) => {
    const { id } = JSON.parse(line);
    const t = indexedAt.get(id);
    if (t !== undefined) samples.push(at - t);
  });
  while (server.streams.countFor(KEY) === 0) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const id = maxArticleId(server.store) + 1;
    const article = live.make(id, server.clock.now());
    indexedAt.set(id, performance.now());
    server.indexArticles([article]);
    await new Promise((r) => setTimeout(r, LATENCY_GAP_MS));
  }
  await new Promise((r) => setTimeout(r, 500));
  child.kill('SIGINT');
  await new Promise((r) => child.on('close', r));
  await server.close();
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { samples: samples.length, median: at(0.5), p95: at(0.95), max: samples.at(-1) };
}

function procStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime, in clock ticks (100/s)
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  return { cpuMs: ticks * 10, rssMb: rss };
}

async function idle() {
  // stderr ignored: the mock logs every request.
  const mock = spawn('node', [BIN, 'mock', 'serve', '--port', '0', '--time-scale', '0.1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve) => {
    mock.stdout.setEncoding('utf8');
    mock.stdout.once('data', (text) => resolve(/http:\/\/\S+/.exec(text)[0]));
  });
  const agent = new Agent({ connections: IDLE_STREAMS + 10, bodyTimeout: 0 });
  const controller = new AbortController();
  const bodies = await Promise.all(
    Array.from({ length: IDLE_STREAMS }, async () => {
      const r = await request(`${url}/v1/news/stream`, {
        headers: { 'x-api-key': KEY },
        dispatcher: agent,
        signal: controller.signal,
      });
      if (r.statusCode !== 200) throw new Error(`stream answered ${r.statusCode}`);
      r.body.on('data', () => undefined).on('error', () => undefined);
      return r.body;
    }),
  );
  await new Promise((r) => setTimeout(r, 2000));
  const samples = [];
  for (let t = 0; t <= IDLE_MS; t += 5000) {
    samples.push({ t, ...procStats(mock.pid) });
    if (t < IDLE_MS) await new Promise((r) => setTimeout(r, 5000));
  }
  controller.abort();
  for (const b of bodies) b.destroy();
  await agent.destroy().catch(() => undefined);
  mock.kill('SIGINT');
  await new Promise((r) => mock.on('close', r));
  const first = samples[0];
  const last = samples.at(-1);
  return {
    streams: IDLE_STREAMS,
    rss: samples.map((s) => s.rssMb.toFixed(1)).join(' → '),
    cpuPercent: ((last.cpuMs - first.cpuMs) / (last.t - first.t)) * 100,
  };
}

const t = await throughput();
console.log(
  `throughput (${transport}): ${t.count} articles (${t.mb.toFixed(0)} MB jsonl) in ${t.seconds.toFixed(2)} s = ${Math.round(t.rate)} articles/s (exit ${t.code}; goal ≥ 5,000/s)`,
);
const l = await latency();
console.log(
  `latency (${transport}): index → stdout median ${l.median.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms, max ${l.max.toFixed(1)} ms over ${l.samples} articles (goal: median < 50 ms)`,
);
const i = await idle();
console.log(
  `idle: ${i.streams} open SSE streams, mock RSS MB every 5 s ${i.rss}, CPU ${i.cpuPercent.toFixed(2)} % of a core`,
);
