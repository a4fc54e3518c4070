// A convert worker's life on one thread: read the export bench's 6 KB articles
// in 2 MB chunks and write each as a Parquet row group, as a worker does, and
// print the time a chunk takes (steady: the median and the least over chunks
// 10 on; and the first three, which run before V8 has compiled the code).
//
//   node bench/export-parquet-chunks.mjs                 # the byte reader (what workers do)
//   node bench/export-parquet-chunks.mjs --path text     # JSON.parse and the record path instead
//   node bench/export-parquet-chunks.mjs --path text --root /tmp/news-before   # another build
//   options: --input FILE (default bench/out/articles6k-100000.jsonl, made by
//            export.bench.mjs --sizes 100000), --chunks N (default 100)
//
// Each run is a fresh process, so its first chunks are cold as a worker's are.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(option('root', join(here, '..')));
const input = option('input', join(here, 'out', 'articles6k-100000.jsonl'));
const path = option('path', 'bytes');
const count = Number(option('chunks', '100'));
const CHUNK = 2 * 1024 * 1024;

const { rowGroupEncoder } = await import(`${root}/dist/output/formats/parquet.js`);
const { ARTICLE_COLUMNS } = await import(`${root}/dist/output/columns.js`);
const { LineReader } = await import(`${root}/dist/output/line-reader.js`);
const { readByteLines } =
  path === 'bytes' ? await import(`${root}/dist/output/parallel/byte-lines.js`) : {};

const encoder = await rowGroupEncoder({
  format: 'parquet',
  columns: ARTICLE_COLUMNS,
  projected: false,
  kind: 'article',
  sanitize: false,
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
for (const bytes of chunks) {
  const t0 = performance.now();
  if (path === 'bytes') {
    readByteLines(bytes, 'lines', {
      add: (records) => {
        for (const r of records) encoder.add(r);
      },
      addLine: encoder.addLine,
    });
  } else {
    const reader = new LineReader({ mode: 'lines', strict: true });
    reader.feedBytes(bytes, new TextDecoder(), () => {
      for (const r of reader.out.splice(0)) encoder.add(r);
    });
  }
  const t1 = performance.now();
  encoder.flush();
  reads.push(t1 - t0);
  writes.push(performance.now() - t1);
}

const steady = (xs) => {
  const s = xs.slice(10).sort((a, b) => a - b);
  return `median ${s[s.length >> 1].toFixed(1)}, least ${s[0].toFixed(1)}`;
};
const totals = reads.map((r, i) => r + writes[i]);
console.log(
  `${path} (${root}), ${chunks.length} chunks of 2 MB, ms a chunk: read ${steady(reads)}; write ${steady(writes)}; together ${steady(totals)}; the first three ${totals
    .slice(0, 3)
    .map((t) => t.toFixed(0))
    .join(', ')}`,
);
