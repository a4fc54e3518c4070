/**
 * The worker thread of `news convert FILE -o postgres://…` (file-load.ts):
 * reads the JSON Lines file, parses it, and makes each batch's COPY text
 * with the plain path's own functions (copy.ts), while the main thread runs
 * the transactions. It stops at the first line the plain path would write
 * otherwise than as declared columns (a field no table declares, top-level
 * or in a list's item, a line that is not a JSON object, a merge's record
 * without an id), saying why.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parentPort, workerData } from 'node:worker_threads';
import type { ApiRecord } from '../../types.js';
import { lastVersions } from '../database/last-versions.js';
import { childLines, mainLines } from './copy.js';
import type { CopyWorkerData, WorkerMessage } from './file-load.js';

const port = parentPort!;
const data = workerData as CopyWorkerData;
const mainNames = new Set(data.main.map((c) => c.name));
const childNames = data.children.map((c) => new Set(c.columns.map((column) => column.name)));

/**
 * Batches sent that the main thread has not taken yet: at most two, so
 * three are in memory at most (those and the one being written).
 */
let credit = 2;
let wake: (() => void) | undefined;
port.on('message', () => {
  credit++;
  wake?.();
});

const isObject = (value: unknown): value is ApiRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why the plain path must have this record, or undefined when the declared columns hold it. */
function problem(record: unknown, line: number): string | undefined {
  if (!isObject(record)) return `line ${line} is not a JSON object`;
  for (const key in record) {
    if (!mainNames.has(key)) return `line ${line} has a field the table does not declare (${key})`;
  }
  if (data.merge && (record['id'] === undefined || record['id'] === null)) {
    return `line ${line} has no id`;
  }
  for (const [i, child] of data.children.entries()) {
    const list = record[child.field];
    if (!Array.isArray(list)) continue;
    const names = childNames[i] as Set<string>;
    for (const item of list) {
      if (!isObject(item)) continue;
      for (const key in item) {
        if (!names.has(key)) {
          return `line ${line} has a ${child.field} item with a field its table does not declare (${key})`;
        }
      }
    }
  }
  return undefined;
}

async function send(message: WorkerMessage): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  const moved = message.type === 'batch' ? [message.main, ...message.children] : [];
  port.postMessage(
    message,
    moved.map((b) => b.buffer as ArrayBuffer),
  );
}

const utf8 = new TextEncoder();

/** The batch's COPY text; its buffers each their own, to be moved (not copied) to the main thread. */
function encode(batch: ApiRecord[], lines: number): WorkerMessage {
  const rows = data.merge ? lastVersions(batch) : batch;
  return {
    type: 'batch',
    lines,
    records: batch.length,
    ids: data.merge ? rows.map((r) => r['id']) : [],
    main: utf8.encode([...mainLines(rows, data.main)].join('')),
    children: data.children.map((c) =>
      utf8.encode([...childLines(rows, c.field, c.columns)].join('')),
    ),
  };
}

async function run(): Promise<void> {
  const input = createInterface({ input: createReadStream(data.file), crlfDelay: Infinity });
  let batch: ApiRecord[] = [];
  let bytes = 0;
  let lines = 0;
  let records = 0;
  for await (const text of input) {
    lines++;
    bytes += text.length;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      record = undefined;
    }
    const why = problem(record, lines);
    if (why !== undefined) {
      port.postMessage({ type: 'stop', reason: why } satisfies WorkerMessage);
      input.close();
      return;
    }
    batch.push(record as ApiRecord);
    records++;
    if (batch.length === data.batch || bytes >= data.batchBytes) {
      await send(encode(batch, lines));
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) await send(encode(batch, lines));
  port.postMessage({ type: 'end', records, lines } satisfies WorkerMessage);
}

run().catch((error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  port.postMessage({ type: 'failed', error: text } satisfies WorkerMessage);
});
