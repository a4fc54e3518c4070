/**
 * `news stream` under load and kills, loopback only (build first: `npm run build`):
 *
 * 1. Soak: `news mock serve --publish-rate` (RATE articles a second, its own
 *    process) and `news stream -f jsonl -o FILE --state S` (its own process)
 *    for SOAK seconds: articles a second written, CPU seconds per 1,000
 *    articles, client and server memory (RSS) every few seconds, and the
 *    slowest `/ping` answer.
 * 2. Outage: the client is killed with SIGKILL, stays down OUTAGE seconds,
 *    and is started again: how many articles it writes in the next CATCH_UP
 *    seconds (goal at 2,000/s after 20 s down: more than 20,000 in 15 s),
 *    while `/ping` is asked every 100 ms (goal: every answer within 1 s).
 * 3. At the end, FILE is read: every id once, none missing between the first
 *    and the last (the mock's ids are consecutive).
 *
 *   node bench/stream-soak.mjs                 # 2,000/s, 120 s soak, 20 s outage, 15 s catch-up
 *   node bench/stream-soak.mjs --short         # 20 s soak, 10 s outage, 10 s catch-up
 *   node bench/stream-soak.mjs --rate 2000 --soak 120 --outage 20 --catch-up 15
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, numberOption, procCpuSeconds, procMemory } from './lib.mjs';

const short = process.argv.includes('--short');
const RATE = numberOption('rate', 2000);
const SOAK_S = numberOption('soak', short ? 20 : 120);
const OUTAGE_S = numberOption('outage', short ? 10 : 20);
const CATCH_UP_S = numberOption('catch-up', short ? 10 : 15);
const KEY = 'api_live_mock_pro';

const dir = mkdtempSync(join(tmpdir(), 'news-stream-soak-'));
const file = join(dir, 'live.jsonl');
const state = join(dir, 'live.state');

/** Lines in FILE, read incrementally. */
const lineCounter = () => {
  let offset = 0;
  let lines = 0;
  const buffer = Buffer.alloc(1 << 20);
  return () => {
    let size;
    try {
      size = statSync(file).size;
    } catch {
      return lines;
    }
    const fd = openSync(file, 'r');
    try {
      while (offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - offset), offset);
        if (n === 0) break;
        for (let i = 0; i < n; i++) if (buffer[i] === 10) lines++;
        offset += n;
      }
    } finally {
      closeSync(fd);
    }
    return lines;
  };
};

const server = spawn(
  process.execPath,
  [BIN, 'mock', 'serve', '--port', '0', '--publish-rate', String(RATE * 60)],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c) => {
    out += c;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) resolve(m[0]);
  });
  server.on('exit', () => reject(new Error('the mock did not start')));
});

function startClient() {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'stream',
      '--base-url',
      url,
      '--api-key',
      KEY,
      '-f',
      'jsonl',
      '-o',
      file,
      '--state',
      state,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr.on('data', () => {});
  return child;
}

/** `/ping` every 100 ms; the slowest answer in a window. */
let slowestPing = 0;
let pings = 0;
let pinging = true;
const pingLoop = (async () => {
  while (pinging) {
    const started = performance.now();
    await fetch(`${url}/ping`).then(
      (r) => r.arrayBuffer(),
      () => undefined,
    );
    slowestPing = Math.max(slowestPing, performance.now() - started);
    pings++;
    await new Promise((r) => setTimeout(r, 100));
  }
})();

const count = lineCounter();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

console.log(
  `mock at ${url}, ${RATE} articles/s; soak ${SOAK_S} s, outage ${OUTAGE_S} s, catch-up ${CATCH_UP_S} s`,
);
console.log('\n1. soak');
console.log('   t (s)  written  client MB  server MB');
let client = startClient();
const soakStart = performance.now();
const cpu0 = { client: 0, server: procCpuSeconds(server.pid) };
while (count() === 0 && performance.now() - soakStart < 30_000) await sleep(50);
const firstAt = performance.now();
const written0 = count();
const every = Math.max(1, Math.round(SOAK_S / 10));
for (let t = every; t <= SOAK_S; t += every) {
  await sleep(every * 1000);
  console.log(
    `   ${String(t).padStart(5)}  ${String(count()).padStart(7)}  ${procMemory(client.pid).rss.toFixed(0).padStart(9)}  ${procMemory(server.pid).rss.toFixed(0).padStart(9)}`,
  );
}
const soakSeconds = (performance.now() - firstAt) / 1000;
const soakWritten = count() - written0;
const clientCpu = procCpuSeconds(client.pid) - cpu0.client;
const serverCpu = procCpuSeconds(server.pid) - cpu0.server;
console.log(
  `   ${(soakWritten / soakSeconds).toFixed(0)} articles/s written (published: ${RATE}/s)`,
);
console.log(
  `   CPU per 1,000 articles: client ${((clientCpu / soakWritten) * 1000).toFixed(3)} s, server ${((serverCpu / soakWritten) * 1000).toFixed(3)} s`,
);
console.log(
  `   peak RSS: client ${procMemory(client.pid).peak.toFixed(0)} MB, server ${procMemory(server.pid).peak.toFixed(0)} MB`,
);
console.log(`   slowest /ping: ${slowestPing.toFixed(0)} ms over ${pings}`);

console.log(`\n2. outage: SIGKILL, ${OUTAGE_S} s down, restart`);
client.kill('SIGKILL');
await new Promise((r) => client.on('close', r));
await sleep(OUTAGE_S * 1000);
const before = count();
slowestPing = 0;
pings = 0;
const restarted = performance.now();
client = startClient();
let firstWriteS;
while (performance.now() - restarted < CATCH_UP_S * 1000) {
  if (firstWriteS === undefined && count() > before)
    firstWriteS = (performance.now() - restarted) / 1000;
  await sleep(20);
}
const caughtUp = count() - before;
const catchUpSeconds = (performance.now() - restarted) / 1000;
console.log(
  `   written in the ${catchUpSeconds.toFixed(1)} s after the restart: ${caughtUp} (missed while down: about ${RATE * OUTAGE_S}; goal at 2,000/s, 20 s down, 15 s: > 20,000)`,
);
console.log(
  `   first article written ${firstWriteS?.toFixed(1) ?? '-'} s after the restart (start-up, lock, connect)`,
);
console.log(
  `   slowest /ping meanwhile: ${slowestPing.toFixed(0)} ms over ${pings} (goal < 1,000 ms)`,
);
console.log(
  `   RSS now: client ${procMemory(client.pid).rss.toFixed(0)} MB, server ${procMemory(server.pid).rss.toFixed(0)} MB`,
);

client.kill('SIGINT');
await new Promise((r) => client.on('close', r));
pinging = false;
await pingLoop;
server.kill('SIGINT');

console.log('\n3. the file');
// Read a line at a time: a long soak's file is larger than a string can be.
const ids = [];
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (line !== '') ids.push(JSON.parse(line).id);
}
const unique = new Set(ids).size;
let missing = 0;
for (let i = 1; i < ids.length; i++)
  if (ids[i] > ids[i - 1] + 1) missing += ids[i] - ids[i - 1] - 1;
console.log(
  `   ${ids.length} articles, ${ids.length - unique} twice, ${missing} missing between first and last`,
);
rmSync(dir, { recursive: true, force: true });
