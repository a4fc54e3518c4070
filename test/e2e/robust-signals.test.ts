/**
 * SIGHUP and crash leftovers, on the built binary: a
 * hang-up cleans up like Ctrl-C and exits 129; a `kill -9` leaves its
 * temporary file, and the next export to the same file removes it.
 *
 * Ctrl-C speaks whenever it lands. A preload
 * (test/helpers/interrupt-at.mjs) sends SIGINT at named moments of an
 * `--all -o FILE` export, from the program loading to the final rename, in
 * csv, jsonl and xlsx: every run says `error: interrupted`, names the files
 * it kept for --resume, and leaves no FILE and no temporary file; or, when
 * the signal came after the rename, ends as the finished export it is.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingServer } from '../helpers/recording-server.js';
import { scratchDir } from '../helpers/scratch.js';
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
      // --resume instead (test/cli/unattended/resume.test.ts); this is the atomic path.
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

const HOOK = fileURLToPath(new URL('../helpers/interrupt-at.mjs', import.meta.url));
/**
 * The fixture's 272 German articles in 14 pages, one page after another:
 * pages enough for a moment mid-paging, and a third of the CPU of all 2,400
 * articles (which added nothing to what a moment proves).
 */
const EXPORT = [
  'search',
  '--mock',
  '--all',
  '--language-code',
  'de',
  '--per-page',
  '20',
  '--concurrency',
  '1',
];
const ALL = 272;

interface Hook {
  api: 'promises' | 'callback' | 'sync' | 'listen';
  fn?: string;
  path?: string;
  nth?: number;
  delayMs?: number;
  signals?: number;
}

/** The mock's own default key: no note about a real key from the environment. */
const mockEnv = () => ({
  ...process.env,
  XDG_CONFIG_HOME: scratchDir('news-config-'),
  NEWS_API_KEY: undefined,
});

/** The export to `int.FORMAT` in a folder of its own, interrupted as `at` says. */
async function interruptAt(format: string, at: Hook, slow?: Hook) {
  const dir = scratchDir('news-int-');
  const out = join(dir, `int.${format}`);
  const r = await runToEnd(process.execPath, ['--import', HOOK, BIN, ...EXPORT, '-o', out], {
    ...mockEnv(),
    NEWS_TEST_INTERRUPT: JSON.stringify({ at, slow }),
  });
  return { ...r, dir, out };
}

/** What every interrupted run must show: the message, what it kept (named), no FILE, no temporary. */
function expectInterrupted(run: Awaited<ReturnType<typeof interruptAt>>): void {
  const { code, stderr, dir, out } = run;
  expect(code, stderr).toBe(130);
  expect(stderr).toMatch(/^error: interrupted$/m);
  expect(stderr).not.toMatch(/unexpected|EBADF|Node\.js v|\n {4}at /);
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  if (existsSync(`${out}.checkpoint.json`)) {
    const c = JSON.parse(readFileSync(`${out}.checkpoint.json`, 'utf8')) as {
      records: number;
      pages: number;
    };
    expect(stderr).toContain(
      `hint: ${c.records.toLocaleString('en-US')} records from ${c.pages} pages are checkpointed in ${out}.partial.jsonl and ${out}.checkpoint.json: the same command with --resume continues\n`,
    );
  } else {
    expect(existsSync(`${out}.partial.jsonl`)).toBe(false);
  }
}

const moments: [string, Hook][] = [
  ['as the program loads, before main() listens', { api: 'listen' }],
  [
    'before the first page (the mock opens its store)',
    { api: 'sync', fn: 'openSync', path: 'store\\.bin$', nth: 1 },
  ],
  [
    'as the first page is spooled',
    { api: 'promises', fn: 'open', path: 'partial\\.jsonl$', nth: 1, delayMs: 100 },
  ],
  [
    'mid paging (the 10th checkpoint)',
    { api: 'promises', fn: 'rename', path: 'checkpoint\\.json', nth: 10, delayMs: 100 },
  ],
  [
    'as the encoding of the spool starts',
    { api: 'sync', fn: 'createReadStream', path: 'partial\\.jsonl$', nth: 1 },
  ],
];
/** The last step, for each format: its temporary file, the fsync before the rename. */
const lastStep: [string, Hook][] = [
  [
    'as the temporary file is opened',
    {
      api: 'callback',
      fn: 'open',
      path: '/\\.int\\.\\w+\\.\\d+\\.[0-9a-f]{8}\\.tmp$',
      nth: 1,
      delayMs: 100,
    },
  ],
  [
    'during the fsync before the rename',
    { api: 'callback', fn: 'fsync', path: '', nth: 1, delayMs: 150 },
  ],
];

describe.runIf(process.platform !== 'win32')('Ctrl-C whenever it lands', () => {
  it.each(moments)(
    'csv: %s',
    async (_name, at) => {
      expectInterrupted(await interruptAt('csv', at));
    },
    60_000,
  );

  it.each(
    ['csv', 'jsonl', 'xlsx'].flatMap((format) =>
      lastStep.map(([name, at]) => [format, name, at] as [string, string, Hook]),
    ),
  )(
    '%s: %s',
    async (format, _name, at) => {
      expectInterrupted(await interruptAt(format, at));
    },
    60_000,
  );

  it('during the final rename: too late to stop, the export ends whole (exit 0), nothing left beside it', async () => {
    const run = await interruptAt('csv', {
      api: 'promises',
      fn: 'rename',
      path: '/\\.int\\.csv\\.\\d+\\.[0-9a-f]{8}\\.tmp$',
      nth: 1,
      delayMs: 150,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^note: wrote 272 records to /m);
    expect(readFileSync(run.out, 'utf8').trimEnd().split('\r\n')).toHaveLength(ALL + 1);
    expect(readdirSync(run.dir)).toEqual(['int.csv']);
  }, 60_000);

  it('after the rename, while the checkpoint is removed: the export is done, exit 0, nothing left', async () => {
    // The first removal clears the way for the run's own checkpoint; the second ends the run.
    const run = await interruptAt('jsonl', {
      api: 'promises',
      fn: 'unlink',
      path: 'checkpoint\\.json$',
      nth: 2,
      delayMs: 150,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/error/);
    expect(readFileSync(run.out, 'utf8').trimEnd().split('\n')).toHaveLength(ALL);
    expect(readdirSync(run.dir)).toEqual(['int.jsonl']);
  }, 60_000);

  it('a cleanup slower than the 3 s grace still ends with the message (it used to exit 130 without a word)', async () => {
    const run = await interruptAt(
      'csv',
      lastStep[0]![1],
      // The removal of the temporary file hangs: the process ends at the grace's end.
      { api: 'promises', fn: 'unlink', path: '\\.tmp$', delayMs: 20_000 },
    );
    expectInterrupted(run);
  }, 60_000);

  it('two Ctrl-Cs at once: the process ends at once, and still says what it kept', async () => {
    const run = await interruptAt('xlsx', { ...lastStep[0]![1], signals: 2 });
    expectInterrupted(run);
    expect(run.stderr).toMatch(/^hint: 272 records from 14 pages are checkpointed in /m);
  }, 60_000);

  it('--resume after an interrupt in the last step finishes the same export', async () => {
    const run = await interruptAt('jsonl', lastStep[1]![1]);
    expectInterrupted(run);
    const resumed = await runToEnd(
      process.execPath,
      [BIN, ...EXPORT, '-o', run.out, '--resume'],
      mockEnv(),
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(run.out, 'utf8').trimEnd().split('\n')).toHaveLength(ALL);
    expect(readdirSync(run.dir)).toEqual(['int.jsonl']);
  }, 60_000);
});
