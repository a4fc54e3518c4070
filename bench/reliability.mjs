import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../dist/mock/server.js';
import { prng, startFaultProxy } from './fault-proxy.mjs';
import { numberOption, runNews } from './lib.mjs';

const SEEDS = numberOption('seeds', 20);
const KILLS = numberOption('kills', 20);
const RUNS = numberOption('runs', 12);
const NOW = '2026-11-20T12:00:00Z';
const KEY = ['--api-key', 'api_live_mock_pro'];
// About 240 articles in 20 pages of 12.
const QUERY = ['--published-at-start', '2026-11-15T00:00:00Z', '--per-page', '12', '--all'];
const dir = mkdtempSync(join(tmpdir(), 'news-reliability-'));

const lines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).id);

const failures = [];
const mock = await startMockServer({ port: 0, quiet: true, now: new Date(NOW) });
const base = join(dir, 'baseline.jsonl');
const b = await runNews(['search', '--base-url', mock.url, ...KEY, ...QUERY, '-o', base, '-q']);
if (b.code !== 0) throw new Error(`baseline failed: ${b.stderr}`);
const baseline = readFileSync(base);
const baselineIds = lines(base);
console.log(`baseline: ${baselineIds.length} articles`);

// 1. Faults.
const faultTotals = {};
let faultOk = 0;
let lost = 0;
let duplicated = 0;
let started = Date.now();
for (let seed = 1; seed <= SEEDS; seed++) {
  const proxy = await startFaultProxy({ target: mock.url, rate: 0.3, seed });
  const out = join(dir, `faulty-${seed}.jsonl`);
  const r = await runNews([
    'search',
    '--base-url',
    proxy.url,
    ...KEY,
    ...QUERY,
    '-o',
    out,
    '-q',
    '--retries',
    '12',
    '--timeout',
    '2',
  ]);
  await proxy.close();
  for (const [k, v] of Object.entries(proxy.faults)) faultTotals[k] = (faultTotals[k] ?? 0) + v;
  if (r.code === 0 && readFileSync(out).equals(baseline)) faultOk++;
  else {
    failures.push(`faults seed ${seed}: exit ${r.code} ${r.stderr.trim()}`);
    if (existsSync(out)) {
      const got = lines(out);
      lost += baselineIds.filter((id) => !got.includes(id)).length;
      duplicated += got.length - new Set(got).size;
    }
  }
}
const faultSeconds = (Date.now() - started) / 1000;

// 2. kill -9.
const slow = await startMockServer({ port: 0, quiet: true, now: new Date(NOW), latencyMs: 60 });
const random = prng(2026);
let killed = 0;
let leftNothing = 0;
let resumedOk = 0;
// Kills land between start-up and the end of paging: the window scales with
// how long one whole export takes here (pages go several at once).
const timed = Date.now();
await runNews([
  'search',
  '--base-url',
  slow.url,
  ...KEY,
  ...QUERY,
  '-o',
  join(dir, 'timed.jsonl'),
  '-q',
]);
const exportMs = Date.now() - timed;
started = Date.now();
for (let i = 0; i < KILLS; i++) {
  const out = join(dir, `killed-${i}.jsonl`);
  const args = ['search', '--base-url', slow.url, ...KEY, ...QUERY, '-o', out, '-q'];
  const first = await runNews(args, {
    killAfterMs: Math.floor(exportMs * (0.3 + 0.65 * random())),
  });
  if (first.signal !== 'SIGKILL') {
    failures.push(`kill ${i}: finished before the kill (exit ${first.code})`);
    continue;
  }
  killed++;
  // Killed after the rename, before the exit: the file is the whole export.
  if (!existsSync(out) || readFileSync(out).equals(baseline)) leftNothing++;
  const resumed = await runNews([...args, '--resume']);
  if (resumed.code === 0 && readFileSync(out).equals(baseline)) resumedOk++;
  else failures.push(`kill ${i}: resume exit ${resumed.code} ${resumed.stderr.trim()}`);
}
const killSeconds = (Date.now() - started) / 1000;
await slow.close();

// 3. Incremental with late indexing.
const state = join(dir, 'state.json');
const outputs = [];
const posted = [];
const rng = prng(7);
for (let run = 0; run < RUNS; run++) {
  if (run > 0) {
    const articles = Array.from({ length: 1 + Math.floor(rng() * 5) }, (_, k) => ({
      title: `posted ${run}.${k}`,
      // Every third one is late: published two days before "now".
      published_at: k % 3 === 2 ? '2026-11-18T08:00:00Z' : NOW,
    }));
    const res = await fetch(`${mock.url}/__mock/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(articles),
    });
    posted.push(...(await res.json()).ids);
  }
  const out = join(dir, `run-${run}.jsonl`);
  const r = await runNews([
    'search',
    '--base-url',
    mock.url,
    ...KEY,
    '--published-at-start',
    '2026-11-15T00:00:00Z',
    '--state',
    state,
    '-f',
    'jsonl',
    '-o',
    out,
    '-q',
  ]);
  if (r.code !== 0) failures.push(`incremental run ${run}: exit ${r.code} ${r.stderr.trim()}`);
  outputs.push(...lines(out));
}
const full = join(dir, 'full-after.jsonl');
await runNews(['search', '--base-url', mock.url, ...KEY, ...QUERY, '-o', full, '-q']);
const fullIds = lines(full);
const union = new Set(outputs);
const incLost = fullIds.filter((id) => !union.has(id)).length;
const incDup = outputs.length - union.size;
const incExtra = [...union].filter((id) => !fullIds.includes(id)).length;
if (incLost + incDup + incExtra > 0)
  failures.push(`incremental: ${incLost} lost, ${incDup} duplicated, ${incExtra} extra`);
await mock.close();

console.log(`
| check | runs | result |
|---|---|---|
| 30 % faults (${Object.entries(faultTotals)
  .map(([k, v]) => `${k}: ${v}`)
  .join(
    ', ',
  )}) | ${SEEDS} seeds, ${faultSeconds.toFixed(0)} s | ${faultOk}/${SEEDS} byte-identical to the fault-free export; ${lost} lost, ${duplicated} duplicated |
| kill -9 at a random moment, then --resume | ${KILLS} (${killed} killed mid-run), ${killSeconds.toFixed(0)} s | ${leftNothing}/${killed} left no file at the destination (or the whole one); ${resumedOk}/${killed} resumed byte-identical |
| incremental --state, ${posted.length} articles posted between ${RUNS} runs (every third late) | ${RUNS} runs | union ${union.size} = full export ${fullIds.length}: ${incLost} lost, ${incDup} duplicated, ${incExtra} extra |
`);
if (failures.length > 0) {
  console.log(failures.join('\n'));
  process.exit(1);
}
