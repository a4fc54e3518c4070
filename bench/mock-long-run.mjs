#!/usr/bin/env node
/**
 * A mock left running: `news mock serve --publish-rate 60` (the README's
 * cron rehearsal) over a simulated week, `--time-scale` small so a week of
 * mock time passes in minutes. The server's resident memory (VmRSS, from
 * /proc) is sampled as the published articles mount up, read off the newest
 * id (published articles take the next ids). A stream client and a search
 * client stay connected meanwhile, as a rehearsal would have them.
 *
 * Goals: RSS < 500 MB after 50,000 and 100,000 published
 * articles, under 1 KB more per article past 50,000, and flat over the week
 * (the store keeps the newest 100,000 published; the journal and the
 * delivery log are capped too). Needs `npm run build`; Linux (/proc).
 * Usage: node bench/mock-long-run.mjs [--rate 60] [--time-scale 0.001] [--days 7]
 * Prints a Markdown table; exits 1 when a goal is missed.
 */
import { spawn } from 'node:child_process';
import { BIN, numberOption, procMemory } from './lib.mjs';

const RATE = numberOption('rate', 60);
const SCALE = numberOption('time-scale', 0.001);
const DAYS = numberOption('days', 7);
const NOW = '2026-03-15T12:00:00Z';
const KEY = 'api_live_mock_pro';
const MARKS = [10_000, 50_000, 100_000, 200_000, 300_000, 400_000, 500_000, 600_000];

const child = spawn(
  process.execPath,
  [
    BIN,
    'mock',
    'serve',
    '--port',
    '0',
    '--now',
    NOW,
    '--publish-rate',
    String(RATE),
    '--time-scale',
    String(SCALE),
    '--no-rate-limit',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let notes = '';
child.stderr.on('data', (c) => {
  for (const line of c.toString().split('\n')) if (line.startsWith('note:')) notes += `${line}\n`;
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c.toString();
    if (out.includes('\n')) resolve(out.trim());
  });
  child.once('exit', (code) => reject(new Error(`mock serve exited with ${code}`)));
});

const newestId = async () => {
  const r = await fetch(`${url}/v1/news/everything`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify({ 'sort.by': 'id', per_page: 1 }),
  });
  const body = await r.json();
  return body.results[0].id;
};

// A stream client reading everything, reconnecting with Last-Event-ID as the
// CLI does when a session ends (60 mock minutes): the journal replays the gap.
const stream = new AbortController();
const streamed = (async () => {
  let events = 0;
  let lastId = '';
  const decoder = new TextDecoder();
  while (!stream.signal.aborted) {
    try {
      const r = await fetch(`${url}/v1/news/stream`, {
        headers: { 'x-api-key': KEY, ...(lastId === '' ? {} : { 'last-event-id': lastId }) },
        signal: stream.signal,
      });
      let text = '';
      for await (const chunk of r.body) {
        text += decoder.decode(chunk, { stream: true });
        const end = text.lastIndexOf('\n\n');
        if (end < 0) continue;
        for (const m of text.slice(0, end).matchAll(/^id: (\d+)$/gm)) lastId = m[1];
        events += (text.slice(0, end).match(/^event: article$/gm) ?? []).length;
        text = text.slice(end + 2);
      }
    } catch {
      // Aborted at the end, or cut: reconnect.
    }
  }
  return events;
})();

const startId = await newestId();
const weekArticles = Math.floor(RATE * 60 * 24 * DAYS);
const rows = [];
const started = performance.now();
let nextMark = 0;
let last = { published: 0, rss: 0, peak: 0 };
for (;;) {
  await new Promise((r) => setTimeout(r, 1000));
  const published = (await newestId()) - startId;
  const m = procMemory(child.pid);
  last = { published, ...m };
  while (nextMark < MARKS.length && published >= MARKS[nextMark]) {
    rows.push({ mark: MARKS[nextMark], ...last });
    nextMark++;
  }
  if (published >= weekArticles) break;
}
rows.push({ mark: last.published, end: true, ...last });
stream.abort();
const events = await streamed;
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
const minutes = (performance.now() - started) / 60_000;

const at = (n) => rows.find((r) => r.mark === n);
const r50 = at(50_000);
const r100 = at(100_000);
const end = rows[rows.length - 1];
const perArticle = r50 && r100 ? ((r100.rss - r50.rss) * 1024 * 1024) / 50_000 : Number.NaN;
const rssOk = (r50?.rss ?? 0) < 500 && (r100?.rss ?? 0) < 500;
const growthOk = perArticle < 1024;
const flatOk = r100 === undefined || end.rss < r100.rss * 1.25;

console.log(
  `\`mock serve --publish-rate ${RATE} --time-scale ${SCALE}\`: ${DAYS} days of mock time in ${minutes.toFixed(1)} min, ${last.published.toLocaleString('en-US')} articles published, ${events.toLocaleString('en-US')} streamed to one client`,
);
console.log('');
console.log('| published articles | server RSS MB | peak MB |');
console.log('|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.end ? `${r.mark.toLocaleString('en-US')} (end)` : r.mark.toLocaleString('en-US')} | ${r.rss.toFixed(0)} | ${r.peak.toFixed(0)} |`,
  );
console.log('');
console.log(
  `Past 50,000: ${Number.isNaN(perArticle) ? 'n/a' : `${perArticle.toFixed(0)} bytes`} a published article (goal < 1 KB${growthOk ? '' : ', **missed**'}); RSS at 50k/100k ${rssOk ? 'under' : '**over**'} 500 MB; end of the week ${flatOk ? 'within 25 % of' : '**above**'} the 100k figure.`,
);
if (notes !== '') console.log(`\nThe server said:\n\n${notes.trim()}`);
process.exitCode = rssOk && growthOk && flatOk ? 0 : 1;
