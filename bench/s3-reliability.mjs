import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { startMockServer } from '../dist/mock/server.js';
import { prng } from './fault-proxy.mjs';
import { startS3Store } from './s3-store.mjs';
import { numberOption, runNews } from './lib.mjs';

const SEEDS = numberOption('seeds', 10);
const KILLS = numberOption('kills', 20);
const PAIRS = numberOption('pairs', 10);
const NOW = new Date('2026-11-20T12:00:00Z');
const KEY = ['--api-key', 'api_live_mock_pro'];
const dir = mkdtempSync(join(tmpdir(), 'news-s3-reliability-'));
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const store = await startS3Store();
const env = { ...process.env, ...store.env };
const direct = new S3Client({
  endpoint: store.direct,
  forcePathStyle: true,
  region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});
const B = `s3://${store.bucket}`;
const news = (args, options = {}) => runNews(args, { env, ...options });

async function keys(prefix) {
  const out = [];
  let token;
  do {
    const page = await direct.send(
      new ListObjectsV2Command({ Bucket: store.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) out.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

async function object(key) {
  const out = await direct.send(new GetObjectCommand({ Bucket: store.bucket, Key: key }));
  return Buffer.from(await out.Body.transformToByteArray());
}

/** What DuckDB reads under a local folder: ids (a torn file throws). */
async function duckIds(folder) {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rows = (
      await con.runAndReadAll(
        `SELECT id::BIGINT FROM read_parquet('${folder}/**/*.parquet', hive_partitioning = true)`,
      )
    ).getRows();
    return rows.map((r) => Number(r[0]));
  } catch (error) {
    if (/No files found/.test(String(error))) return [];
    throw error;
  } finally {
    con.closeSync();
  }
}

/** The store's objects under a prefix, copied to a folder as they are: what a reader of the store sees. */
async function snapshot(prefix) {
  const to = mkdtempSync(join(dir, 'snap-'));
  for (const key of await keys(prefix)) {
    const path = join(to, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, await object(key));
  }
  return join(to, prefix);
}

const failures = [];
const faultTotals = { 500: 0, slowdown: 0, reset: 0 };
const dup = (ids) => ids.length - new Set(ids).size;

async function post(mock, articles) {
  const res = await fetch(`${mock.url}/__mock/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(articles),
  });
  return (await res.json()).ids;
}

async function fullIds(mock, query) {
  const out = join(dir, `full-${Math.random().toString(16).slice(2)}.jsonl`);
  const r = await news([
    'search',
    '--base-url',
    mock.url,
    ...KEY,
    ...query,
    '--all',
    '-o',
    out,
    '-q',
  ]);
  if (r.code !== 0) throw new Error(`full export failed: ${r.stderr}`);
  return readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).id);
}

// 1. Faults.
const big = await startMockServer({ port: 0, quiet: true, now: NOW, articles: 4200 });
const bigQuery = ['--published-at-start', '2026-10-01', '--all', '--per-page', '100'];
const baseFile = join(dir, 'baseline.jsonl');
await news(['search', '--base-url', big.url, ...KEY, ...bigQuery, '-o', baseFile, '-q']);
const baseline = readFileSync(baseFile);
let exportOk = 0;
let exportFailedClean = 0;
let seriesOk = 0;
const started = Date.now();
const WRITES = ['UploadPart', 'CompleteMultipartUpload', 'PutObject', 'CopyObject'];
for (let seed = 1; seed <= SEEDS; seed++) {
  const random = prng(seed);
  const kinds = ['500', 'slowdown', 'reset'];
  store.setFault((op) => {
    if (!WRITES.includes(op) || random() >= 0.2) return undefined;
    const kind = kinds[Math.floor(random() * kinds.length)];
    faultTotals[kind] += 1;
    return kind;
  });
  const key = `faults/${seed}/all.jsonl`;
  const r = await news([
    'search',
    '--base-url',
    big.url,
    ...KEY,
    ...bigQuery,
    '-o',
    `${B}/${key}`,
    '-q',
  ]);
  const there = (await keys(key)).includes(key);
  if (r.code === 0 && there && (await object(key)).equals(baseline)) exportOk++;
  else if (r.code !== 0 && !there) exportFailedClean++;
  else
    failures.push(
      `faults seed ${seed}: export exit ${r.code}, object ${there ? 'differs' : 'missing'}`,
    );

  // A series of partitioned --state runs through the same faults.
  const mock = await startMockServer({ port: 0, quiet: true, now: NOW });
  const query = ['--published-at-start', '2026-11-17T00:00:00Z', '--per-page', '20'];
  const args = [
    'search',
    '--base-url',
    mock.url,
    ...KEY,
    ...query,
    '--state',
    `${B}/faults/${seed}/s.json`,
    '-f',
    'parquet',
    '-o',
    `${B}/faults/${seed}/data/`,
    '--partition-by',
    'day',
    '-q',
  ];
  for (let run = 0; run < 4; run++) {
    if (run > 0)
      await post(mock, [{ title: `f${seed}.${run}`, published_at: '2026-11-18T10:00:00Z' }]);
    // A run the faults defeat is repeated, as cron would an hour later.
    for (let attempt = 0; attempt < 5 && (await news(args)).code !== 0; attempt++);
  }
  store.setFault(undefined);
  const last = await news(args);
  const ids = await duckIds(await snapshot(`faults/${seed}/data/`));
  const want = await fullIds(mock, query);
  await mock.close();
  if (
    last.code === 0 &&
    ids.length === want.length &&
    dup(ids) === 0 &&
    want.every((id) => ids.includes(id))
  )
    seriesOk++;
  else
    failures.push(
      `faults seed ${seed}: data set ${ids.length} rows (${dup(ids)} duplicated) for ${want.length} articles; ${last.stderr.trim()}`,
    );
}
const faultSeconds = (Date.now() - started) / 1000;
await big.close();

// 2. kill -9, into the store (honouring conditional writes, then ignoring
// them: the token lock) and into a local folder.
async function killSuite(where) {
  const slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 30 });
  const random = prng({ store: 2026, disk: 2027, ignoring: 2028 }[where]);
  const query = ['--published-at-start', '2026-11-15T00:00:00Z', '--per-page', '10'];
  const local = join(dir, 'local-set');
  rmSync(local, { recursive: true, force: true });
  const prefix = where === 'ignoring' ? 'killed-nc' : 'killed';
  const inStore = where !== 'disk';
  store.setConditionalWrites(where !== 'ignoring');
  const state = inStore ? `${B}/${prefix}/s.json` : join(dir, 'local-s.json');
  const root = inStore ? `${B}/${prefix}/data/` : local;
  const args = [
    'search',
    '--base-url',
    slow.url,
    ...KEY,
    ...query,
    '--state',
    state,
    '-f',
    'parquet',
    '-o',
    root,
    '--partition-by',
    'day',
    '-q',
  ];
  const seen = async () => (inStore ? duckIds(await snapshot(`${prefix}/data/`)) : duckIds(local));
  const result = { killed: 0, visibleDup: 0, completed: 0, started: Date.now(), phases: {} };
  // Where each kill landed, from the state it left: none (fetching, or done), writing, publishing.
  const phase = async () => {
    try {
      const text = inStore
        ? (await object(`${prefix}/s.json`)).toString()
        : readFileSync(state, 'utf8');
      return JSON.parse(text).pending?.stage ?? 'no commit pending';
    } catch {
      return 'no state yet';
    }
  };
  // Six new articles over six days per run: six partition files to publish.
  const postSome = (i) =>
    post(
      slow,
      Array.from({ length: 6 }, (_, d) => ({
        title: `k${i}.${d}`,
        published_at: `2026-11-${15 + d}T10:00:00Z`,
      })),
    );
  // How long such a run takes here: half the kills land anywhere in it, half
  // near its end, where the files are staged and published.
  await news(args); // the first run fetches everything: not the kind of run to time
  await postSome(-1);
  const t0 = Date.now();
  await news(args);
  const span = Date.now() - t0;
  for (let i = 0; i < KILLS; i++) {
    await postSome(i);
    const at = i % 2 === 0 ? random() * span : span * (0.6 + random() * 0.5);
    const first = await news(args, { killAfterMs: Math.floor(at) });
    if (first.signal === 'SIGKILL') {
      result.killed++;
      const p = await phase();
      result.phases[p] = (result.phases[p] ?? 0) + 1;
    }
    try {
      const ids = await seen();
      result.visibleDup += dup(ids);
    } catch (error) {
      failures.push(`${where} kill ${i}: a reader failed on what was visible: ${error.message}`);
    }
    const again = await news(args);
    if (again.code === 0) result.completed++;
    else
      failures.push(
        `${where} kill ${i}: the same command exit ${again.code} ${again.stderr.trim()}`,
      );
  }
  const ids = await seen();
  const want = await fullIds(slow, query);
  await slow.close();
  result.rows = ids.length;
  result.want = want.length;
  result.lost = want.filter((id) => !ids.includes(id)).length;
  result.duplicated = dup(ids);
  result.seconds = (Date.now() - result.started) / 1000;
  const leftovers = inStore
    ? (await keys(`${prefix}/`)).filter((k) => k.includes('_staging') || k.endsWith('.lock'))
    : [];
  store.setConditionalWrites(true);
  if (result.lost || result.duplicated || result.visibleDup || leftovers.length) {
    failures.push(
      `${where}: lost ${result.lost}, duplicated ${result.duplicated}, visible duplicates ${result.visibleDup}, left ${leftovers.join(' ')}`,
    );
  }
  return result;
}
const inStore = await killSuite('store');
const ignoring = await killSuite('ignoring');
const onDisk = await killSuite('disk');

// 3. Two runs of the same line on one --state, the second started 0–1.5 s
// after the first, on a store that ignores conditional writes (s3rver as it
// is): every record once, and never two runs that both finish writing.
async function pairSuite() {
  store.setConditionalWrites(false);
  const slow = await startMockServer({ port: 0, quiet: true, now: NOW, latencyMs: 30 });
  const random = prng(2029);
  const query = ['--published-at-start', '2026-11-15T00:00:00Z', '--per-page', '10'];
  const args = [
    'search',
    '--base-url',
    slow.url,
    ...KEY,
    ...query,
    '--state',
    `${B}/pairs/s.json`,
    '-f',
    'parquet',
    '-o',
    `${B}/pairs/data/`,
    '--partition-by',
    'day',
    '-q',
  ];
  const result = { outcomes: {}, started: Date.now() };
  for (let i = 0; i < PAIRS; i++) {
    await post(
      slow,
      Array.from({ length: 6 }, (_, d) => ({
        title: `p${i}.${d}`,
        published_at: `2026-11-${15 + d}T10:00:00Z`,
      })),
    );
    const first = news(args);
    await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
    const second = news(args);
    const codes = [(await first).code, (await second).code];
    const losers = [await first, await second].filter((r) => r.code !== 0);
    for (const r of losers) {
      if (r.code !== 1 || !/^error: another run holds /.test(r.stderr)) {
        failures.push(`pair ${i}: exit ${r.code} ${r.stderr.trim()}`);
      }
    }
    const key = codes.join('/');
    result.outcomes[key] = (result.outcomes[key] ?? 0) + 1;
  }
  const last = await news(args);
  const ids = await duckIds(await snapshot('pairs/data/'));
  const want = await fullIds(slow, query);
  await slow.close();
  store.setConditionalWrites(true);
  result.rows = ids.length;
  result.want = want.length;
  result.lost = want.filter((id) => !ids.includes(id)).length;
  result.duplicated = dup(ids);
  result.seconds = (Date.now() - result.started) / 1000;
  if (last.code !== 0 || result.lost || result.duplicated) {
    failures.push(
      `pairs: last exit ${last.code}, lost ${result.lost}, duplicated ${result.duplicated}`,
    );
  }
  return result;
}
const pairs = await pairSuite();
await store.close();

const phases = (r) =>
  Object.entries(r.phases)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
const row = (name, r) =>
  `| kill -9 at a random moment, ${name} | ${KILLS} (${r.killed} killed mid-run; state left: ${phases(r)}), ${r.seconds.toFixed(0)} s | data set ${r.rows} rows = ${r.want} articles: ${r.lost} lost, ${r.duplicated} duplicated; ${r.visibleDup} duplicates visible after any kill; ${r.completed}/${KILLS} completed by the same command |`;
console.log(`
| check | runs | result |
|---|---|---|
| 20 % faults on writes (500: ${faultTotals['500']}, SlowDown: ${faultTotals.slowdown}, reset: ${faultTotals.reset}), 9 MB multipart export | ${SEEDS} seeds, ${faultSeconds.toFixed(0)} s (with the series below) | ${exportOk}/${SEEDS} identical to the fault-free export, ${exportFailedClean} failed with nothing at the key |
| the same faults, 5 partitioned --state s3:// runs per seed | ${SEEDS} seeds | ${seriesOk}/${SEEDS} data sets hold every article once |
${row('--state s3:// partitioned', inStore)}
${row('--state s3:// partitioned, a store ignoring conditional writes (token lock)', ignoring)}
${row('local partitioned data set', onDisk)}
| two runs of one line, the second 0–1.5 s later, a store ignoring conditional writes | ${PAIRS} pairs, ${pairs.seconds.toFixed(0)} s | exits (first/second): ${Object.entries(
  pairs.outcomes,
)
  .map(([k, v]) => `${k}: ${v}`)
  .join(
    ', ',
  )}; data set ${pairs.rows} rows = ${pairs.want} articles: ${pairs.lost} lost, ${pairs.duplicated} duplicated |
`);
if (failures.length > 0) {
  console.log(failures.map((f) => `- ${f}`).join('\n'));
  process.exit(1);
}
