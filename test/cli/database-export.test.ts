/**
 * The loop that writes pages into a database session (database-export.ts),
 * against a session that only records what it is asked: pages gathered
 * into batches in order, the next batch read while the last is written,
 * never two writes at once (two where the session writes ahead), and a
 * failed write ending the run with its own error (not an unhandled
 * rejection) after the session is closed.
 */
import { describe, expect, it } from 'vitest';
import { exportToDatabase } from '../../src/cli/export/database-export.js';
import type { Runtime } from '../../src/cli/runtime/runtime.js';
import type { DatabaseSession } from '../../src/output/destinations/database/types.js';
import type { DatabaseDestination } from '../../src/output/destinations/destination.js';
import type { ApiRecord } from '../../src/output/types.js';

const runtime = {
  settings: { table: undefined, write: undefined },
  report: { notice: () => undefined },
  signal: new AbortController().signal,
} as unknown as Runtime;

interface Trace {
  events: string[];
  batches: number[][];
  inFlight: number;
  most: number;
}

/** A session whose writes end when `release` is called (or fail with `failOn`'s batch). */
function fakeDestination(trace: Trace, options: { failOn?: number; writesAhead?: boolean } = {}) {
  const pending: (() => void)[] = [];
  const session: DatabaseSession = {
    engine: 'postgres',
    describe: 'fake',
    table: 'articles',
    writesAhead: options.writesAhead ?? false,
    lockState: async () => undefined,
    readState: async () => undefined,
    async writeBatch(records: readonly ApiRecord[]) {
      const n = trace.batches.length;
      trace.batches.push(records.map((r) => r['id'] as number));
      trace.events.push(`write ${n}`);
      trace.inFlight += 1;
      trace.most = Math.max(trace.most, trace.inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      trace.inFlight -= 1;
      trace.events.push(`written ${n}`);
      if (n === options.failOn) throw new Error(`batch ${n} refused`);
    },
    finish: async () => {
      trace.events.push('finish');
    },
    close: async () => {
      trace.events.push(`close, ${trace.inFlight} in flight`);
    },
  };
  const destination = {
    kind: 'database',
    url: { engine: 'postgres', url: 'postgres://x', redacted: 'postgres://x' },
    open: async () => session,
  } as DatabaseDestination;
  // Writes end one by one, each a little after it started.
  const timer = setInterval(() => pending.shift()?.(), 5);
  return { destination, stop: () => clearInterval(timer) };
}

/** Pages of ids, noting each page taken. */
async function* pages(trace: Trace, count: number, size: number) {
  for (let p = 0; p < count; p++) {
    trace.events.push(`page ${p}`);
    yield Array.from({ length: size }, (_, i) => ({ id: p * size + i }));
  }
}

const fresh = (): Trace => ({ events: [], batches: [], inFlight: 0, most: 0 });

describe('exportToDatabase', () => {
  it('gathers pages into batches in order, one write at a time, reading ahead while one is written', async () => {
    const trace = fresh();
    const { destination, stop } = fakeDestination(trace);
    const written = await exportToDatabase(runtime, pages(trace, 6, 10), 'article', destination, {
      gather: 20,
    });
    stop();
    expect(written).toBe(60);
    expect(trace.batches.map((b) => b.length)).toEqual([20, 20, 20]);
    expect(trace.batches.flat()).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(trace.most).toBe(1);
    // Pages 2 and 3 (the second batch) were taken before the first batch was written.
    expect(trace.events.indexOf('page 3')).toBeLessThan(trace.events.indexOf('written 0'));
    expect(trace.events.slice(-2)).toEqual(['finish', 'close, 0 in flight']);
  });

  it('where the session writes ahead, two writes are in flight, never three, in order', async () => {
    const trace = fresh();
    const { destination, stop } = fakeDestination(trace, { writesAhead: true });
    const written = await exportToDatabase(runtime, pages(trace, 8, 10), 'article', destination);
    stop();
    expect(written).toBe(80);
    expect(trace.batches.flat()).toEqual(Array.from({ length: 80 }, (_, i) => i));
    expect(trace.most).toBe(2);
    expect(trace.events.indexOf('write 1')).toBeLessThan(trace.events.indexOf('written 0'));
    expect(trace.events.slice(-2)).toEqual(['finish', 'close, 0 in flight']);
  });

  it('writing ahead, the first failure ends the run, after the write behind it ended too', async () => {
    const trace = fresh();
    const { destination, stop } = fakeDestination(trace, { failOn: 0, writesAhead: true });
    await expect(
      exportToDatabase(runtime, pages(trace, 50, 10), 'article', destination),
    ).rejects.toThrow('batch 0 refused');
    stop();
    expect(trace.batches.length).toBe(2);
    expect(trace.events).not.toContain('finish');
    expect(trace.events.at(-1)).toBe('close, 0 in flight');
  });

  it('a write that fails ends the run with its error, closes the session, and reads little more', async () => {
    const trace = fresh();
    const { destination, stop } = fakeDestination(trace, { failOn: 0 });
    await expect(
      exportToDatabase(runtime, pages(trace, 50, 10), 'article', destination, { gather: 10 }),
    ).rejects.toThrow('batch 0 refused');
    stop();
    expect(trace.events).not.toContain('finish');
    expect(trace.events.at(-1)).toBe('close, 0 in flight');
    expect(trace.events.filter((e) => e.startsWith('page')).length).toBeLessThan(4);
  });
});
