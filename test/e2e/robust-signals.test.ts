/**
 * Issue 17 (SIGHUP) and issue 14 (crash leftovers), on the built binary: a
 * hang-up cleans up like Ctrl-C and exits 129; a `kill -9` leaves its
 * temporary file, and the next export to the same file removes it.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingServer } from '../helpers/recording-server.js';
import { BIN, runToEnd, spawnCollecting } from '../helpers/spawn.js';

const KEY = 'api_live_e2e_signals_4242';
/** Page 1 answers at once; page 2 never: the export is mid-way, its temporary file open. */
let server: RecordingServer;

const env = () => ({
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-')),
  NEWS_API_KEY: KEY,
});

beforeAll(async () => {
  server = await new RecordingServer((req) => {
    const page = Number((req.body as { page?: number } | undefined)?.page ?? 1);
    if (page > 1) return null;
    const results = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, title: `T ${i}` }));
    return { body: { status: 'ok', page, has_next_pages: true, results } };
  }).start();
});
afterAll(() => server.stop());

async function midExport(dir: string) {
  const out = join(dir, 'out.csv');
  const run = spawnCollecting(
    process.execPath,
    [
      BIN,
      'search',
      '--base-url',
      server.url,
      // --limit, not --all: an `--all -o` export spools to a checkpoint for
      // --resume instead (test/cli/cron/resume.test.ts); this is the atomic path.
      '--limit',
      '1000',
      '-o',
      out,
      '--retries',
      '0',
      '--timeout',
      '60',
    ],
    env(),
  );
  // Wait until the temporary file exists: page 1 is being written.
  for (let i = 0; i < 100 && !readdirSync(dir).some((f) => f.endsWith('.tmp')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
  return { run, out };
}

describe.runIf(process.platform !== 'win32')('signals and leftovers', () => {
  it('SIGHUP exits 129 and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-sighup-'));
    const { run, out } = await midExport(dir);
    run.child.kill('SIGHUP');
    expect(await run.exit).toBe(129);
    expect(run.stderr()).toMatch(/^error: interrupted/m);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('kill -9 leaves a temporary file; the next export to the same file removes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-kill9-'));
    const { run, out } = await midExport(dir);
    run.child.kill('SIGKILL');
    await run.exit;
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
    const next = await runToEnd(
      process.execPath,
      [BIN, 'search', '--base-url', server.url, '-o', out, '--retries', '0'],
      env(),
    );
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });
});
