/**
 * `--articles N`: the base set grown with N − base generated extras, kept as
 * columns only (their JSON is made again from the seed when a page shows
 * one). Made newest first, so a scan reads their rows in sequence; when the
 * machine has cores to spare, by this thread and worker threads
 * (extras-worker.ts) at once, each making one contiguous run of dates (this
 * thread the newest, straight into the table), appended in order: the table
 * is the same whichever way it was made, row for row.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { REFERENCE_INSTANT } from '../fixtures/committed.js';
import type { ArticleJson } from './article-json.js';
import { appendTable, namedColumns, reserveRows } from './table-layout.js';
import { ArticleTable, BODY } from './table.js';

/** Below this many extras, threads cost more than they save. */
const PARALLEL_FROM = 20_000;
/** This thread and at most three workers. */
const MAX_THREADS = 4;
/**
 * Extras made between two turns of the event loop: a Ctrl-C is heard while
 * a large set grows (main.ts's handlers, the `signal`), at no measurable cost.
 */
const YIELD_EVERY = 8192;

/** One run of extras to make: their indexes, newest first, and their times (shifted to now). */
export interface ExtrasTask {
  seed: number;
  indexes: Int32Array;
  published: Float64Array;
}

/** A table's contents as a worker posts them back (each column's whole array, transferred, and its length). */
export interface TablePart {
  columns: [string, Float64Array | Int32Array | Uint8Array, number][];
  dicts: [string, unknown[]][];
  titles: string[];
}

type Extras = import('../fixtures/generate.js').ExtraArticles;

async function extrasFor(seed: number): Promise<Extras> {
  const [{ ExtraArticles }, { buildWorld }] = await Promise.all([
    import('../fixtures/generate.js'),
    import('../fixtures/world.js'),
  ]);
  return new ExtraArticles(buildWorld(seed), seed);
}

/**
 * Makes a run of extras (lean: the values the columns hold) into `table`;
 * rejects with the signal's reason once it is aborted.
 */
export async function makeExtras(
  task: ExtrasTask,
  table: ArticleTable,
  extras?: Extras,
  signal?: AbortSignal,
): Promise<void> {
  extras ??= await extrasFor(task.seed);
  const n = task.indexes.length;
  // Room for every row at once, the lists sized from the first rows' values (or the table's own).
  const sample = table.rows > 0 ? 0 : Math.min(n, 256);
  for (let k = 0; k < n; k++) {
    if (k % YIELD_EVERY === 0) {
      if (k > 0) await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    if (k === sample) reserveRows(table, table.rows + n - k);
    const i = task.indexes[k] as number;
    const published = task.published[k] as number;
    // The date is the column's; the lean article's own is not read.
    table.append(extras.indexed(i, ''), { kind: BODY.extra, ref: i }, published, published);
  }
}

export function partOf(table: ArticleTable): TablePart {
  return {
    columns: namedColumns(table).map(([name, c]) => [name, c.data, c.length]),
    dicts: Object.entries(table.dict).map(([name, d]) => [name, d.values as unknown[]]),
    titles: table.titles,
  };
}

function tableOf(part: TablePart): ArticleTable {
  const table = new ArticleTable();
  const columns = new Map(part.columns.map(([name, data, length]) => [name, { data, length }]));
  for (const [name, column] of namedColumns(table)) {
    const posted = columns.get(name);
    if (posted === undefined) throw new Error(`an --articles worker sent no column ${name}`);
    column.data = posted.data;
    column.length = posted.length;
  }
  for (const [name, values] of part.dicts) {
    const dict = table.dict[name as keyof ArticleTable['dict']];
    for (const v of values) (dict.values as unknown[]).push(v);
  }
  for (const t of part.titles) table.titles.push(t);
  return table;
}

/** Extras' JSON is made again from the seed when a page shows one: the generator, ready. */
export async function makesExtras(json: ArticleJson, seed: number): Promise<Extras> {
  const extras = await extrasFor(seed);
  json.generate(BODY.extra, (ref) => extras.make(ref));
  return extras;
}

/**
 * The extras' indexes newest first (ties: the higher index, a later id).
 * Ages are whole milliseconds, so age and index fit one double when the
 * indexes take few enough bits: a native sort of those keys is ~2× quicker
 * than a comparator's.
 */
export function newestFirst(ages: Float64Array): Int32Array {
  const count = ages.length;
  const top = 2 ** Math.max(1, Math.ceil(Math.log2(count + 1)));
  let oldest = 0;
  for (const age of ages) oldest = Math.max(oldest, age);
  if (!Number.isSafeInteger(oldest * top + top) || !ages.every(Number.isInteger)) {
    return Int32Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => (ages[a] as number) - (ages[b] as number) || b - a,
    );
  }
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = (ages[i] as number) * top + (top - 1 - i);
  keys.sort();
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[k] = top - 1 - ((keys[k] as number) % top);
  return order;
}

/** `promise`, or its rejection with the signal's reason as soon as the signal is aborted. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export async function addExtras(
  table: ArticleTable,
  json: ArticleJson,
  seed: number,
  count: number,
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  const extras = await makesExtras(json, seed);
  // Each extra's date is its random stream's first draw: all are dated before any is made.
  const ages = Float64Array.from({ length: count }, (_, i) => extras.age(i));
  // Newest first; ties by the higher id (a later index).
  const order = newestFirst(ages);
  const shift = now.getTime() - REFERENCE_INSTANT;
  const published = Float64Array.from(
    order,
    (i) => REFERENCE_INSTANT - (ages[i] as number) + shift,
  );
  const threads = count < PARALLEL_FROM ? 1 : Math.min(MAX_THREADS, availableParallelism());
  const workerUrl = new URL('./extras-worker.js', import.meta.url);
  // From the sources (the tests), there is no compiled worker: the extras are made here.
  const canThread = threads > 1 && !import.meta.url.endsWith('.ts');
  const first = table.rows;
  if (!canThread) {
    await makeExtras({ seed, indexes: order, published }, table, extras, signal);
    table.insert(Array.from({ length: count }, (_, k) => first + k));
    return;
  }
  const size = Math.ceil(count / threads);
  const run = (t: number): ExtrasTask => ({
    seed,
    indexes: order.slice(t * size, (t + 1) * size),
    published: published.slice(t * size, (t + 1) * size),
  });
  // Workers make the older runs, one each…
  const workers: Worker[] = [];
  const made = Promise.all(
    Array.from({ length: threads - 1 }, (_, w) => {
      const task = run(w + 1);
      return new Promise<TablePart>((resolve, reject) => {
        const worker = new Worker(workerUrl, { workerData: task });
        workers.push(worker);
        worker.once('message', (part: TablePart) => resolve(part));
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (code !== 0) reject(new Error(`an --articles worker stopped (exit code ${code})`));
        });
      });
    }),
  );
  // Awaited below; when this thread fails first, the workers it stops reject it unheard.
  made.catch(() => undefined);
  const stopAll = async (error: unknown): Promise<never> => {
    // One failed: the others' work is of no use.
    await Promise.all(workers.map((t) => t.terminate()));
    throw error;
  };
  // …while this thread makes the newest straight into the table (no copy,
  // no codes to translate), with room reserved for all of them.
  reserveRows(table, first + count);
  await makeExtras(run(0), table, extras, signal).catch(stopAll);
  const parts = await abortable(made, signal).catch(stopAll);
  const tables = parts.map(tableOf);
  // Room for every part at once: each column is copied into its final array once.
  const added = new Map<string, number>();
  for (const t of tables)
    for (const [name, c] of namedColumns(t)) added.set(name, (added.get(name) ?? 0) + c.length);
  for (const [name, c] of namedColumns(table)) c.reserve(c.length + (added.get(name) ?? 0));
  const rows = Array.from({ length: table.rows - first }, (_, k) => first + k);
  for (const t of tables) for (const row of appendTable(table, t)) rows.push(row);
  table.insert(rows);
}
