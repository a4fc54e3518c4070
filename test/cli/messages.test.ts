import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { RecordingServer } from '../helpers/recording-server.js';

describe('mock serve on a busy port', () => {
  const blocker = createServer();
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('says the port is in use and suggests --port 0 (exit 1)', async () => {
    const r = await runCli(['mock', 'serve', '--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: port ${port} is in use; try --port 0\\nhint:`));
    expect(r.stderr).not.toContain('unexpected failure');
    expect(r.stdout).toBe('');
  });
});

describe('the timeout hint names --timeout', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await new RecordingServer(() => null).start();
  });
  afterAll(() => server.stop());

  it('after a request that took too long', async () => {
    const r = await runCli([
      'balance',
      '--base-url',
      server.url,
      '--api-key',
      'api_live_x',
      '--timeout',
      '0.2',
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/hint: .*raise --timeout SECONDS/);
  });
});

describe('hints never point at a repository path', () => {
  it('a bad query', async () => {
    const r = await runCli(['search', '--query', 'title:(']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/docs\/|src\//);
  });
  it.each([
    ['query', '--help'],
    ['mock', 'serve', '--help'],
  ])('%s help', async (...argv) => {
    const r = await runCli(argv);
    expect(r.stdout).not.toMatch(/docs\/|src\//);
  });
});
