// Where the time of `--all` into PostgreSQL goes, beside `--all -o
// file.jsonl` against the same mock: each run's wall time, the CPU time of
// each process (the client, the mock, every postgres process; from /proc),
// the postgres CPU by process (the backend, walwriter, checkpointer,
// autovacuum workers, …, by their titles), the machine's idle share, and
// what the server's backend was doing, sampled every 5 ms from
// pg_stat_activity in one more run of its own (the sampling costs CPU too):
// working (and on what it waited, if it did: I/O, a lock), or waiting for
// the client inside a COPY, between statements, between transactions.
//
//   npm run build && node bench/db-export-waits.mjs [--articles 20000] [--rounds 2]
//
// The floor it shows: three processes on the machine's cores cannot finish
// before (the sum of their CPU) / (cores), nor before the busiest of them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startBenchPostgres } from './db-server.mjs';
import { BIN, procCpuSeconds, serveMock } from './lib.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const ARTICLES = option('articles', 20_000);
const ROUNDS = option('rounds', 2);
const WORK = mkdtempSync(join(tmpdir(), 'news-bench-waits-'));
process.on('exit', () => rmSync(WORK, { recursive: true, force: true }));

/** A process's CPU so far, in ms; 0 once it is gone. */
const cpuMs = (pid) => {
  try {
    return procCpuSeconds(pid) * 1000;
  } catch {
    return 0;
  }
};
const isPostgres = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
};
/** What a postgres process is (its title: "postgres: checkpointer", "postgres: autovacuum worker", a backend's user and database). */
const title = (pid) => {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    // A process on its way out reads as empty: keep what it was.
    if (words === '') return undefined;
    const role = words.match(/^postgres: (.*)$/)?.[1];
    if (role === undefined) return 'postmaster';
    // A backend's title is "USER DATABASE HOST(PORT) STATE": keep who it is.
    return /\(\d+\)/.test(role) ? 'backend' : role.replace(/ .*(worker|launcher).*$/, ' $1');
  } catch {
    return undefined;
  }
};
const machine = () => {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3] + ticks[4], all: ticks.reduce((a, b) => a + b, 0) };
};

const mock = await serveMock({ articles: ARTICLES, now: '2026-11-20T12:00:00Z', cache: WORK });
const server = await startBenchPostgres();
const base = server.url.replace(/\/postgres$/, '');

/** One `--all` run into `target`; with `sampled`, the backend writing into that database is sampled. */
async function run(target, sampled) {
  // A backend ends with its connection: each pid's CPU is its last reading.
  const postgres = new Map();
  const readPostgres = () => {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && isPostgres(d))) {
      postgres.set(pid, { ms: cpuMs(pid), title: title(pid) ?? postgres.get(pid)?.title });
    }
  };
  readPostgres();
  const cpuBefore = new Map([...postgres].map(([pid, { ms }]) => [pid, ms]));
  const mockBefore = cpuMs(mock.child.pid);
  const before = machine();
  const started = performance.now();
  const argv = ['search', '--base-url', mock.url, '--api-key', 'api_live_mock_pro', '--all', '-q'];
  const child = spawn(process.execPath, [BIN, ...argv, '-o', target], { stdio: 'inherit' });
  let client = 0;
  const sampler = setInterval(() => {
    client = Math.max(client, cpuMs(child.pid));
    readPostgres();
  }, 100);
  const waits = new Map();
  let sampling = sampled !== undefined;
  const watcher = (async () => {
    if (!sampling) return;
    const watch = new pg.Client({ connectionString: server.url });
    await watch.connect();
    while (sampling) {
      const { rows } = await watch.query(
        `SELECT state, wait_event_type, wait_event, left(query, 12) AS statement FROM pg_stat_activity
         WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [sampled],
      );
      for (const { state, wait_event_type: type, wait_event: event, statement } of rows) {
        const what =
          state !== 'active'
            ? `${state}, after ${statement.split(/\s/)[0]}`
            : event === 'ClientRead'
              ? 'waiting for the client inside a COPY'
              : event === null
                ? 'working'
                : `working, waiting on ${type} ${event}`;
        waits.set(what, (waits.get(what) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await watch.end();
  })();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  sampling = false;
  await watcher;
  if (code !== 0) throw new Error(`the export into ${target} exited ${code}`);
  const after = machine();
  const byRole = new Map();
  for (const [pid, { ms, title: role }] of postgres) {
    const used = ms - (cpuBefore.get(pid) ?? 0);
    byRole.set(role ?? 'gone', (byRole.get(role ?? 'gone') ?? 0) + used);
  }
  const postgresCpu = [...byRole.values()].reduce((a, b) => a + b, 0);
  return {
    seconds: (performance.now() - started) / 1000,
    client: client / 1000,
    mock: (cpuMs(mock.child.pid) - mockBefore) / 1000,
    postgres: postgresCpu / 1000,
    idle: (after.idle - before.idle) / (after.all - before.all),
    byRole,
    waits,
  };
}

const line = (name, r) =>
  `| ${name} | ${r.seconds.toFixed(2)} s | ${r.client.toFixed(1)} s | ${r.mock.toFixed(1)} s | ${r.postgres.toFixed(1)} s | ${(r.idle * 100).toFixed(0)} % |`;
try {
  console.log(`${ARTICLES} articles, ${availableParallelism()} cores\n`);
  console.log('| run | wall | client CPU | mock CPU | postgres CPU | machine idle |');
  console.log('|---|---|---|---|---|---|');
  for (let round = 0; round < ROUNDS; round++) {
    const jsonl = await run(join(WORK, 'all.jsonl'));
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE waits${round}`);
    await admin.end();
    const into = await run(`${base}/waits${round}`);
    console.log(line('`--all -o all.jsonl`', jsonl));
    console.log(line('`--all -o postgres://…`', into));
    const cpu = into.client + into.mock + into.postgres;
    const floor = Math.max(cpu / availableParallelism(), into.client, into.postgres);
    console.log(
      `| round ${round + 1} | ${(into.seconds / jsonl.seconds).toFixed(2)}× | floor ${floor.toFixed(1)} s = ${(floor / jsonl.seconds).toFixed(2)}× | | | |`,
    );
    const roles = [...into.byRole].filter(([, ms]) => ms >= 50).sort((a, b) => b[1] - a[1]);
    console.log(
      `| postgres CPU by process | ${roles.map(([role, ms]) => `${role} ${(ms / 1000).toFixed(1)} s`).join(', ')} | | | | |`,
    );
  }
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('CREATE DATABASE waits_sampled');
  await admin.end();
  const all = (await run(`${base}/waits_sampled`, 'waits_sampled')).waits;
  console.log("\nThe server's backend in one more run, share of 5 ms samples:");
  const total = [...all.values()].reduce((a, b) => a + b, 0);
  for (const [what, n] of [...all].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
    console.log(`- ${what}: ${((100 * n) / total).toFixed(1)} %`);
  }
} finally {
  mock.child.kill('SIGTERM');
  await server.stop();
}
