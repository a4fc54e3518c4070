/**
 * `news webhooks listen` throughput and memory (the goal: at least 200
 * deliveries/s of 100 articles each, with flat memory).
 *
 * Runs the built CLI as a child process, `news webhooks listen --secret S
 * --port 0` with stdout a pipe this script drains and counts (jsonl lines),
 * and posts signed deliveries of 100 fixture articles each over keep-alive
 * connections, `--concurrency` at a time. Each delivery has its own delivery
 * id, so every one is verified, parsed, written and flushed. The child's RSS
 * is sampled from /proc every 250 ms.
 *
 *   npm run build && node bench/webhooks-listen.bench.mjs [--deliveries 6000] [--concurrency 4]
 *
 * Exits 1 when a budget is missed: < 200 deliveries/s, or RSS at the end more
 * than 40 MB above RSS after the first 10 % of deliveries.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '6000' },
    concurrency: { type: 'string', default: '4' },
  },
});
const DELIVERIES = Number(values.deliveries);
const CONCURRENCY = Number(values.concurrency);
const SECRET = 'whsec_bench';
const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));

const { loadFixtures } = await import('../dist/mock/fixtures/load.js');
const store = loadFixtures();
const batches = [];
for (let i = 0; i + 100 <= store.articles.length; i += 100) {
  batches.push(
    // Bytes, encoded once: the sender must not be what is measured.
    Buffer.from(
      JSON.stringify({
        event: 'articles.new',
        webhook_id: 1,
        delivered_at: new Date().toISOString(),
        articles: store.articles.slice(i, i + 100),
      }),
    ),
  );
}
const bodyBytes = batches.reduce((a, b) => a + b.length, 0) / batches.length;

const child = spawn(
  process.execPath,
  [
    // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the receiver.
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    BIN,
    '-q',
    'webhooks',
    'listen',
    '--secret',
    SECRET,
    '--port',
    '0',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let url;
let lines = 0;
let pending = '';
child.stdout.on('data', (chunk) => {
  if (url === undefined) {
    pending += chunk.toString();
    const nl = pending.indexOf('\n');
    if (nl === -1) return;
    url = pending.slice(0, nl);
    chunk = Buffer.from(pending.slice(nl + 1));
  }
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
});
while (url === undefined) await new Promise((r) => setTimeout(r, 10));

const rss = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};
/** CPU seconds the receiver used (utime + stime, in clock ticks of 1/100 s). */
const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const samples = [];
const sampler = setInterval(() => samples.push({ sent, mb: rss() }), 250);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const signatures = new Map();
const send = (body) =>
  new Promise((resolve, reject) => {
    const t = String(Math.floor(Date.now() / 1000));
    // One HMAC per body per second, as the body and timestamp are all it covers.
    const key = `${t}:${batches.indexOf(body)}`;
    let sig = signatures.get(key);
    if (sig === undefined) {
      sig = `sha256=${createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex')}`;
      signatures.set(key, sig);
    }
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'x-webhook-signature': sig,
        'x-webhook-id': '1',
        'x-webhook-delivery-id': `dlv_${randomUUID()}`,
        'x-webhook-timestamp': t,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });

let sent = 0;
const cpuBefore = cpuSeconds();
const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (sent < DELIVERIES) {
      const n = sent++;
      await send(batches[n % batches.length]);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const cpu = cpuSeconds() - cpuBefore;
clearInterval(sampler);
samples.push({ sent, mb: rss() });
while (lines < DELIVERIES * 100) await new Promise((r) => setTimeout(r, 10));
child.kill('SIGINT');
await new Promise((r) => child.on('close', r));
agent.destroy();

const rate = DELIVERIES / seconds;
const early = samples.find((s) => s.sent >= DELIVERIES * 0.1) ?? samples[0];
const end = samples[samples.length - 1];
const peak = Math.max(...samples.map((s) => s.mb));
// CPU per delivery does not depend on what else the machine runs; 1000 / it is
// what one free core could take.
const cpuMs = (cpu * 1000) / DELIVERIES;
console.log(
  `| deliveries | articles each | body KB | concurrency | seconds | deliveries/s | articles/s | receiver CPU ms/delivery | RSS at 10 % MB | RSS at end MB | peak RSS MB |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
console.log(
  `| ${DELIVERIES} | 100 | ${(bodyBytes / 1024).toFixed(0)} | ${CONCURRENCY} | ${seconds.toFixed(1)} | ${rate.toFixed(0)} | ${(rate * 100).toFixed(0)} | ${cpuMs.toFixed(2)} | ${early.mb.toFixed(0)} | ${end.mb.toFixed(0)} | ${peak.toFixed(0)} |`,
);
console.log(
  `load average during the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
const misses = [];
if (rate < 200) misses.push(`${rate.toFixed(0)} deliveries/s < 200`);
if (end.mb - early.mb > 40) misses.push(`RSS grew ${(end.mb - early.mb).toFixed(0)} MB`);
if (lines !== DELIVERIES * 100) misses.push(`${lines} lines written, expected ${DELIVERIES * 100}`);
if (misses.length > 0) {
  console.log(`budget missed: ${misses.join('; ')}`);
  process.exit(1);
}
console.log('every budget met');
