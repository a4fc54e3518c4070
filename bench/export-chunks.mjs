// A convert worker's life on one thread: read a JSONL file in chunks (2 MB
// for Parquet, 1 MB for the text formats, as record-source.ts cuts them) and
// encode each as a worker does (parallel/worker.ts: lines from their bytes
// where the format's encoder takes them, else decoded and parsed), and print
// the time a chunk takes (steady: the median and the least over chunks 10
// on; and the first three, which run before V8 has compiled the code).
//
//   node bench/export-chunks.mjs --format csv            # what a worker does
//   node bench/export-chunks.mjs --format csv --path text   # JSON.parse and the record path instead
//   node bench/export-chunks.mjs --format parquet --root /tmp/news-before   # another build
//   node --cpu-prof bench/export-chunks.mjs --format csv # a profile with the modules' own names
//   options: --input FILE (default bench/out/api-7-20000.jsonl, made by
//            bench/api-articles.mjs), --chunks N (default 100), --format F (default parquet)
//
// Each run is a fresh process, so its first chunks are cold as a worker's are.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(option('root', join(here, '..')));
const input = option('input', join(here, 'out', 'api-7-20000.jsonl'));
const format = option('format', 'parquet');
const path = option('path', 'bytes');
const count = Number(option('chunks', '100'));
const CHUNK = format === 'parquet' ? 2 * 1024 * 1024 : 1024 * 1024;

const { loadChunkEncoder } = await import(`${root}/dist/output/parallel/page-encoders.js`);
const { ARTICLE_COLUMNS } = await import(`${root}/dist/output/columns.js`);
const { readByteLines, readTextLines } = await import(`${root}/dist/output/parallel/byte-lines.js`);

const encoder = await loadChunkEncoder({
  format,
  columns: ARTICLE_COLUMNS,
  projected: false,
  kind: 'article',
  sanitize: format === 'csv' || format === 'tsv',
});
const file = readFileSync(input);
const chunks = [];
for (let at = 0; at < file.length && chunks.length < count; ) {
  let end = Math.min(file.length, at + CHUNK);
  if (end < file.length) end = file.lastIndexOf(10, end) + 1;
  chunks.push(new Uint8Array(file.subarray(at, end))); // its own buffer, as a worker's chunk
  at = end;
}

const reads = [];
const writes = [];
let bytesIn = 0;
let bytesOut = 0;
for (const bytes of chunks) {
  const t0 = performance.now();
  if (path === 'bytes' && encoder.addLine !== undefined) readByteLines(bytes, 'lines', encoder);
  else readTextLines(bytes, 0, bytes.length, 'lines', 0, (r) => encoder.add(r));
  const t1 = performance.now();
  const page = encoder.finish();
  reads.push(t1 - t0);
  writes.push(performance.now() - t1);
  bytesIn += bytes.length;
  bytesOut += page.bytes.length;
}

const steady = (xs) => {
  const s = xs.slice(Math.min(10, xs.length - 1)).sort((a, b) => a - b);
  return `median ${s[s.length >> 1].toFixed(2)}, least ${s[0].toFixed(2)}`;
};
const totals = reads.map((r, i) => r + writes[i]);
const sorted = totals.slice(Math.min(10, totals.length - 1)).sort((a, b) => a - b);
const mbps = CHUNK / 1e6 / (sorted[sorted.length >> 1] / 1000);
console.log(
  `${format}, ${path === 'bytes' && encoder.addLine !== undefined ? 'byte lines' : 'text'} (${root}), ${chunks.length} chunks of ${CHUNK >> 20} MB (${(bytesOut / bytesIn).toFixed(2)} bytes out a byte in), ms a chunk: lines ${steady(reads)}; finish ${steady(writes)}; together ${steady(totals)} (~${mbps.toFixed(0)} MB/s a thread); the first three ${totals
    .slice(0, 3)
    .map((t) => t.toFixed(0))
    .join(', ')}`,
);
if (process.argv.includes('--each')) console.log(totals.map((t) => t.toFixed(1)).join(' '));
