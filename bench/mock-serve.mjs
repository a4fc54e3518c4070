#!/usr/bin/env node
/**
 * `news mock serve --articles N` as a user runs it, in its own process:
 * how long until it prints its URL (ready), then a load of five-filter
 * searches from this process over loopback (undici, keep-alive, C
 * connections, each sending its next search as soon as the previous answer
 * is read), with the server's resident memory (VmRSS after the load, VmHWM
 * its peak, from /proc) and its CPU time per search. Each run starts a fresh
 * server (`--no-rate-limit`: the fixture keys' limits would answer 429).
 *
 * Goals, 100,000 articles: ready ≤ 2 s; ≥ 3,000 searches/s over
 * 10 connections with RSS < 500 MB. Needs `npm run build`; Linux (/proc).
 * Usage: node bench/mock-serve.mjs [--articles 100000] [--connections 10]
 *        [--seconds 5] [--runs 3]
 * Prints a Markdown table (medians of the runs); exits 1 when a goal is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { median, numberOption, procCpuSeconds, procMemory, serveMock } from './lib.mjs';

const ARTICLES = numberOption('articles', 100_000);
const CONNECTIONS = numberOption('connections', 10);
const SECONDS = numberOption('seconds', 5);
const RUNS = numberOption('runs', 3);
const NOW = '2026-03-15T12:00:00Z';

/** Five filters, a page of ten, newest first: what a CLI user's search looks like. */
const BODY = JSON.stringify({
  'language.code': 'en',
  has_image: 1,
  'source.rank.opr.min': 3,
  'sentiment.overall.score.min': -0.5,
  'read_time.max': 10,
  per_page: 10,
});

/**
 * The grown set's cache (src/mock/store/grown-cache.ts) in a directory of the
 * bench's own, emptied before each start: every run measures a first start.
 */
const CACHE = mkdtempSync(join(tmpdir(), 'news-mock-serve-'));
process.on('exit', () => rmSync(CACHE, { recursive: true, force: true }));

function serve() {
  rmSync(join(CACHE, 'news'), { recursive: true, force: true });
  return serveMock({ articles: ARTICLES, now: NOW, cache: CACHE });
}

async function stop(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function load(url, ms) {
  const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 10_000 });
  const target = `${url}/v1/news/everything`;
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  const end = started + ms;
  const loop = async () => {
    while (performance.now() < end) {
      sent++;
      const { statusCode, body } = await request(target, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'x-api-key': 'api_live_mock_pro' },
        body: BODY,
      });
      await body.text();
      if (statusCode !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { sent, failed, seconds };
}

const ready = [];
const readyRss = [];
const rates = [];
const cpu = [];
const rss = [];
const peak = [];
let failed = 0;
for (let run = 0; run < RUNS; run++) {
  const server = await serve();
  try {
    ready.push(server.ready);
    readyRss.push(procMemory(server.child.pid).rss);
    await load(server.url, 500); // warm-up
    const before = procCpuSeconds(server.child.pid);
    const r = await load(server.url, SECONDS * 1000);
    cpu.push((procCpuSeconds(server.child.pid) - before) / r.sent);
    rates.push(r.sent / r.seconds);
    failed += r.failed;
    const m = procMemory(server.child.pid);
    rss.push(m.rss);
    peak.push(m.peak);
  } finally {
    await stop(server);
  }
}

const goals = ARTICLES === 100_000;
const readyOk = !goals || median(ready) <= 2;
const rateOk = !goals || median(rates) >= 3000;
const rssOk = !goals || Math.max(...peak) < 500;
console.log(`| \`mock serve --articles ${ARTICLES}\` | median of ${RUNS} runs | goal |`);
console.log('|---|---|---|');
console.log(
  `| ready (URL printed) | ${median(ready).toFixed(2)} s (${ready.map((s) => s.toFixed(2)).join(', ')}); RSS then ${median(readyRss).toFixed(0)} MB | ${goals ? `≤ 2 s${readyOk ? '' : ' **missed**'}` : ''} |`,
);
console.log(
  `| five-filter searches, ${CONNECTIONS} connections, ${SECONDS} s | ${median(rates).toFixed(0)} req/s (${rates.map((r) => r.toFixed(0)).join(', ')}); server CPU ${(median(cpu) * 1000).toFixed(3)} ms a search; non-200: ${failed} | ${goals ? `≥ 3,000 req/s${rateOk ? '' : ' **missed**'}` : ''} |`,
);
console.log(
  `| server memory under that load | RSS ${median(rss).toFixed(0)} MB, peak ${Math.max(...peak).toFixed(0)} MB | ${goals ? `< 500 MB${rssOk ? '' : ' **missed**'}` : ''} |`,
);
process.exitCode = readyOk && rateOk && rssOk && failed === 0 ? 0 : 1;
