/** A worker thread of extras.ts: makes its run of `--articles` extras into a table and posts it back. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ExtrasTask, makeExtras, partOf } from './extras.js';
import { ArticleTable } from './table.js';

const table = new ArticleTable();
await makeExtras(workerData as ExtrasTask, table);
const part = partOf(table);
parentPort?.postMessage(
  part,
  part.columns.map(([, data]) => data.buffer as ArrayBuffer),
);
