/**
 * The page encoders by format, for convert's workers: each encodes records
 * exactly as the format's writer would (the writers use the same functions).
 * Records are added a few at a time, so a worker never holds a whole chunk of
 * parsed records; `finish` gives the chunk's encoded page. Formats missing
 * here (xlsx, table) encode on the main thread only.
 */
import type { EncodedPage, EncoderSpec } from './format-writer.js';
import { pageBytes } from './page-bytes.js';
import type { PageEncoder } from './text-writer.js';
import type { ApiRecord, FormatName } from './types.js';

/** The formats a worker thread can encode (`loadChunkEncoder`). */
export const OFF_THREAD_FORMATS: ReadonlySet<FormatName> = new Set([
  'json',
  'jsonl',
  'ndjson',
  'csv',
  'tsv',
  'xml',
  'rss',
  'parquet',
]);

/**
 * Loads what `format`'s encoder needs (its module, its library, Snappy's
 * WebAssembly) by making one with no columns and dropping it: a worker does
 * this while it waits for the writer's spec.
 */
export async function preloadEncoder(format: FormatName): Promise<void> {
  if (!OFF_THREAD_FORMATS.has(format)) return;
  await loadChunkEncoder({
    format,
    columns: [],
    projected: false,
    kind: 'generic',
    sanitize: false,
  });
}

export interface ChunkEncoder {
  add(records: readonly ApiRecord[]): void;
  /** Parquet: a line's record straight from its bytes (parallel/byte-lines.ts); false: read it as text. */
  readonly addLine?:
    | ((bytes: Uint8Array, from: number, to: number, topLevel: boolean) => boolean)
    | undefined;
  /** The records added since the last finish, as one page; its bytes in `spare` when they fit. */
  finish(spare?: ArrayBuffer): EncodedPage;
}

/**
 * Text is encoded with `encodeInto` straight into one buffer kept for every
 * chunk (about 2.5 times faster than `encode`, and no joined string); the
 * page gets a copy of the bytes used, which is then transferred.
 */
function textChunks(encode: PageEncoder): ChunkEncoder {
  const utf8 = new TextEncoder();
  let buffer = new Uint8Array(4 * 1024 * 1024);
  let used = 0;
  let records = 0;
  return {
    add(page) {
      if (page.length === 0) return;
      const text = encode(page);
      if (used + text.length * 3 > buffer.length) {
        const bigger = new Uint8Array(Math.max(buffer.length * 2, used + text.length * 3));
        bigger.set(buffer.subarray(0, used));
        buffer = bigger;
      }
      used += utf8.encodeInto(text, buffer.subarray(used)).written;
      records += page.length;
    },
    finish(spare) {
      const page = { records, bytes: pageBytes(buffer.subarray(0, used), spare) };
      used = 0;
      records = 0;
      return page;
    },
  };
}

export async function loadChunkEncoder(spec: EncoderSpec): Promise<ChunkEncoder> {
  switch (spec.format) {
    case 'json':
      return textChunks((await import('./formats/json.js')).jsonEncoder(spec));
    case 'jsonl':
    case 'ndjson':
      return textChunks((await import('./formats/json.js')).jsonLinesEncoder(spec));
    case 'csv':
      return textChunks((await import('./formats/csv.js')).csvEncoder(spec));
    case 'tsv':
      return textChunks((await import('./formats/tsv.js')).tsvEncoder(spec));
    case 'xml':
      return textChunks(await (await import('./formats/xml.js')).xmlEncoder(spec));
    case 'rss':
      return textChunks(await (await import('./formats/rss.js')).rssEncoder(spec));
    case 'parquet': {
      const encoder = await (await import('./formats/parquet.js')).rowGroupEncoder(spec);
      return {
        add(records) {
          for (const r of records) encoder.add(r);
        },
        addLine: encoder.addLine,
        finish(spare) {
          return encoder.flush(spare) ?? { records: 0, bytes: new Uint8Array(0) };
        },
      };
    }
    default:
      throw new Error(`${spec.format} is not encoded off the main thread`);
  }
}
