import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingServer } from '../helpers/recording-server.js';
import { BIN, runToEnd, spawnCollecting } from '../helpers/spawn.js';

/**
 * The built binary as a user runs it: exit codes, stdout/stderr separation,
 * a closed pipe, Ctrl-C. `npm test` builds dist/ before the tests run.
 */
const KEY = 'api_live_e2e_secret_9876';
let server: RecordingServer;
let slow: RecordingServer;
/** Small records (what `--fields id` asks for), 50 pages; page `failOn` answers 500. */
let small: RecordingServer;
let failOn = 0;

const env = () => ({
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-')),
  NEWS_API_KEY: KEY,
});

beforeAll(async () => {
  server = await new RecordingServer((req) => {
    const page = Number((req.body as { page?: number } | undefined)?.page ?? 1);
    const results = Array.from({ length: 100 }, (_, i) => ({
      id: page * 1000 + i,
      title: `T ${i}`,
      body: 'x'.repeat(2000),
    }));
    return { body: { status: 'ok', page, has_next_pages: page < 50, results } };
  }).start();
  // Never answers: the request is in flight when Ctrl-C comes.
  slow = await new RecordingServer(() => null).start();
  small = await new RecordingServer((req) => {
    const page = Number((req.body as { page?: number } | undefined)?.page ?? 1);
    if (page === failOn) return { status: 500, body: { errors: [{ message: 'boom' }] } };
    const results = Array.from({ length: 100 }, (_, i) => ({ id: page * 1000 + i, title: 't' }));
    return { body: { status: 'ok', page, has_next_pages: page < 50, results } };
  }).start();
});
afterAll(async () => {
  await server.stop();
  await slow.stop();
  await small.stop();
});

const runAsync = (command: string, args: string[]) => runToEnd(command, args, env());

describe('the news binary', () => {
  it('--version prints the version on stdout and exits 0', () => {
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', env: env() });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(r.stderr).toBe('');
  });

  it('data on stdout, errors on stderr, exit 2 for a validation error', () => {
    const r = spawnSync(
      process.execPath,
      [BIN, 'search', '--base-url', server.url, '--per-page', '0'],
      { encoding: 'utf8', env: env() },
    );
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --per-page must be an integer from 1 to 250/);
  });

  it('`| head -1` ends quietly with status 0', async () => {
    // Async: the server lives in this process, so a blocking spawnSync would starve it.
    const r = await runAsync('bash', [
      '-c',
      `"${process.execPath}" "${BIN}" search --base-url ${server.url} --all -f jsonl | head -1; echo "status=\${PIPESTATUS[0]}"`,
    ]);
    const [line, status] = r.stdout.trim().split('\n');
    expect(JSON.parse(line!).id).toBe(1000);
    expect(status).toBe('status=0');
    expect(r.stderr).toBe('');
  });

  it('`| head -1` with small records stops the fetching: no batch holds pages back', async () => {
    small.requests.length = 0;
    failOn = 0;
    const r = await runAsync('bash', [
      '-c',
      `"${process.execPath}" "${BIN}" search --base-url ${small.url} --all -f jsonl --fields id,title | head -1; echo "status=\${PIPESTATUS[0]}"`,
    ]);
    const [line, status] = r.stdout.trim().split('\n');
    expect(JSON.parse(line!)).toEqual({ id: 1000, title: 't' });
    expect(status).toBe('status=0');
    // Page 1, the prefetched page 2, at most one more on its way when the
    // write of page 2 finds the pipe closed: never the 50 pages.
    expect(small.requests.length).toBeLessThanOrEqual(4);
  });

  it('a run that fails on page N has written every record of pages 1..N-1 to stdout', async () => {
    small.requests.length = 0;
    failOn = 4;
    const r = await runAsync(process.execPath, [
      BIN,
      'search',
      '--base-url',
      small.url,
      '--all',
      '-f',
      'jsonl',
      '--fields',
      'id',
      '--retries',
      '0',
    ]);
    failOn = 0;
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(300);
    expect(JSON.parse(lines[299]!)).toEqual({ id: 3099 });
    expect(r.stderr).toMatch(/^error: boom \(HTTP 500/m);
  });

  // Output thrown away on purpose (>/dev/null, a scheduler's stdio "ignore",
  // a closed stdout Node reopens on /dev/null): test/e2e/discarded-output.test.ts.

  it('Ctrl-C exits 130 and leaves no partial file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-sigint-'));
    const out = join(dir, 'out.jsonl');
    const run = spawnCollecting(
      process.execPath,
      [BIN, 'search', '--base-url', slow.url, '-o', out, '--retries', '0', '--timeout', '30'],
      env(),
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    run.child.kill('SIGINT');
    const code = await run.exit;
    expect(code).toBe(130);
    expect(run.stderr()).toMatch(/^error: interrupted/m);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
