/**
 * `news stream --state S -o FILE` killed with SIGKILL and restarted, again
 * and again: every article the mock published between the first and the
 * last one written is in FILE exactly once, in order, and FILE holds no
 * broken record. Each kill is chosen on an observed write (the file grew),
 * never on a clock: the run is frozen there, and killed when the moment is
 * a dangerous one (a batch in the file and not yet in the state, or a
 * record half written), the moments a kill by the OOM killer may land on.
 */
import { readFileSync, statSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { lastRecordId } from '../../src/output/last-record-id.js';
import { scratchDir } from '../helpers/scratch.js';
import { BIN, spawnCollecting } from '../helpers/spawn.js';

let server: MockServer;
beforeAll(async () => {
  // 300 articles a second, consecutive ids, no filters: every id in a range is expected.
  server = await startMockServer({ quiet: true, publishRate: 18_000 });
});
afterAll(() => server.close());

const KILLS = 4;

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Wakes the test on each change in a folder (a write, a rename), instead of
 * polling it on every turn of the event loop: that kept a core busy in the
 * test's own process, beside the run it watches, the whole time. The wait
 * also ends after 20 ms without a change, so a missed event costs no more.
 */
function changesIn(dir: string) {
  let changed = false;
  let wake: (() => void) | undefined;
  const watcher = watch(dir, () => {
    changed = true;
    wake?.();
  });
  return {
    next: () =>
      new Promise<void>((resolve) => {
        if (changed) {
          changed = false;
          return resolve();
        }
        const timer = setTimeout(done, 20);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          changed = false;
          resolve();
        }
        wake = done;
      }),
    close: () => watcher.close(),
  };
}

/**
 * Waits for FILE to grow, freezes the run there (SIGSTOP) and kills it
 * (SIGKILL) when that moment is one a kill must survive: the state behind
 * the file's last record, or a record half written. Otherwise it lets the
 * run go on (SIGCONT) to the next write; after `tries` writes it kills anyway.
 */
async function killOnWrite(args: string[], file: string, state: string, tries: number) {
  const changes = changesIn(dirname(file));
  const run = spawnCollecting('node', [BIN, ...args], env());
  let size = sizeOf(file);
  const deadline = Date.now() + 60_000;
  let exited = false;
  void run.exit.then(() => {
    exited = true;
  });
  try {
    for (let seen = 0; ; ) {
      if (exited) throw new Error(`the stream ended before the kill: ${run.stderr()}`);
      if (Date.now() > deadline) throw new Error('the file never grew');
      const now = sizeOf(file);
      if (now <= size) {
        await changes.next();
        continue;
      }
      size = now;
      seen++;
      run.child.kill('SIGSTOP');
      if (seen >= tries || (await exposed(file, state))) break;
      run.child.kill('SIGCONT');
    }
  } finally {
    changes.close();
  }
  run.child.kill('SIGKILL');
  await run.exit;
}

/** Whether the file holds more than the state says, or ends in the middle of a record. */
async function exposed(file: string, state: string): Promise<boolean> {
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith('\n')) return true;
  const format = file.slice(file.lastIndexOf('.') + 1) as 'jsonl';
  const last = await lastRecordId(file, format);
  let saved: number | undefined;
  try {
    saved = (JSON.parse(readFileSync(state, 'utf8')) as { watermark?: { value: number } }).watermark
      ?.value;
  } catch {
    saved = undefined;
  }
  return last !== undefined && (saved === undefined || saved < Number(last));
}

const env = (url = server.url) => ({
  ...process.env,
  NEWS_API_KEY: 'api_live_mock_pro',
  NEWS_API_BASE_URL: url,
});

/** The ids in FILE, each record checked whole. */
function idsIn(file: string, format: string): number[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n'), 'the file ends with a whole record').toBe(true);
  if (format === 'jsonl') {
    return text
      .slice(0, -1)
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
  }
  if (format === 'tsv') {
    const [header, ...rows] = text.slice(0, -1).split('\n');
    const columns = header!.split('\t');
    const at = columns.indexOf('id');
    return rows.map((row) => {
      const cells = row.split('\t');
      expect(cells).toHaveLength(columns.length);
      return Number(cells[at]);
    });
  }
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data.map((row) => Number(row['id']));
}

describe('news stream --state -o FILE under kill -9', () => {
  // ndjson is jsonl's writer and reader under another name (output/export.ts,
  // last-record-id.ts): jsonl's runs are its runs too.
  it.each(['jsonl', 'csv', 'tsv'])(
    '%s: each article once, none missing, no broken record',
    async (format) => {
      const dir = scratchDir('news-stream-kill-');
      const file = join(dir, `live.${format}`);
      const state = join(dir, 'live.state');
      const args = ['stream', '-f', format, '-o', file, '--state', state];
      for (let kill = 0; kill < KILLS; kill++) await killOnWrite(args, file, state, 20);
      // Ends on its own once it wrote more, however slow the machine is to connect.
      const last = spawnCollecting('node', [BIN, ...args, '--max-events', '50'], env());
      expect(await last.exit, last.stderr()).toBe(0);

      const ids = idsIn(file, format);
      expect(ids.length).toBeGreaterThan(KILLS);
      expect(new Set(ids).size, 'no id twice').toBe(ids.length);
      // Consecutive ids from the first written to the last: none missing, in order.
      const first = ids[0]!;
      expect(ids).toEqual(ids.map((_, i) => first + i));
    },
    120_000,
  );

  it('a run killed during a long replay has moved its position: the next one goes on from there', async () => {
    // A mock of its own, quiet: the backlog is the only traffic.
    const quiet = await startMockServer({ quiet: true });
    const environment = env(quiet.url);
    const dir = scratchDir('news-stream-replay-kill-');
    const file = join(dir, 'live.jsonl');
    const state = join(dir, 'live.state');
    const args = ['stream', '-o', file, '--state', state];
    const first = spawnCollecting('node', [BIN, ...args, '--max-events', '1'], environment);
    while (quiet.streams.openedFor('api_live_mock_pro') === 0)
      await new Promise((r) => setTimeout(r, 20));
    await quiet.indexArticles([{ title: 'first' }]);
    expect(await first.exit, first.stderr()).toBe(0);
    const savedAt = () =>
      (JSON.parse(readFileSync(state, 'utf8')) as { watermark: { value: number } }).watermark.value;
    const start = savedAt();

    // A backlog while no run goes on: the next run starts with its replay.
    const backlog = 5000;
    const posted = await fetch(`${quiet.url}/__mock/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'api_live_mock_pro' },
      body: JSON.stringify(Array.from({ length: backlog }, (_, i) => ({ title: `backlog ${i}` }))),
    });
    expect(posted.status).toBe(201);
    const lastPosted = ((await posted.json()) as { ids: number[] }).ids.at(-1)!;

    // Killed as soon as the replay has moved the state (observed, not timed): mid-replay.
    const changes = changesIn(dir);
    const replay = spawnCollecting('node', [BIN, ...args], environment);
    const deadline = Date.now() + 60_000;
    let ended = false;
    void replay.exit.then(() => {
      ended = true;
    });
    while (!ended && savedAt() === start) {
      if (Date.now() > deadline) throw new Error(`the state never moved: ${replay.stderr()}`);
      await changes.next();
    }
    replay.child.kill('SIGKILL');
    changes.close();
    await replay.exit;
    const after = savedAt();
    expect(after).toBeGreaterThan(start);
    const ids = idsIn(file, 'jsonl');
    expect(ids.at(-1)!).toBeLessThan(lastPosted);

    const rest = String(lastPosted - ids.at(-1)!);
    const last = spawnCollecting('node', [BIN, ...args, '--max-events', rest], environment);
    expect(await last.exit, last.stderr()).toBe(0);
    const all = idsIn(file, 'jsonl');
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(all.map((_, i) => all[0]! + i));
    expect(all.at(-1)!).toBe(lastPosted);
    expect(all).toHaveLength(backlog + 1);
    await quiet.close();
  }, 120_000);
});
