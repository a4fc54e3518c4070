/**
 * The page encoders by format, for convert's workers: each encodes records
 * exactly as the format's writer would (the writers use the same functions).
 * Records are added a few at a time, so a worker never holds a whole chunk of
 * parsed records; `finish` gives the chunk's encoded page. Formats missing
 * here (xlsx, table) encode on the main thread only.
 */
import type { EncodedPage, EncoderSpec } from '../format-writer.js';
import { fastPathsOn } from '../fast-paths.js';
import { pageBytes } from './page-bytes.js';
import type { LineWriter } from '../fast/delimited-bytes.js';
import type { TextOut } from '../fast/tape-text.js';
import type { PageEncoder } from '../text-writer.js';
import type { ApiRecord, FormatName } from '../types.js';

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
  finish(spare?: ArrayBufferLike): EncodedPage;
}

/**
 * Text is encoded with `encodeInto` straight into one buffer kept for every
 * chunk (about 2.5 times faster than `encode`, and no joined string); the
 * page gets a copy of the bytes used, for the main thread. With
 * `lines` (a byte writer: delimited-bytes.ts, json-bytes.ts), a line is
 * written from its bytes into the same buffer, in input order with the
 * records `add` encodes (the lines it declines).
 */
function textChunks(out: TextOut, encode: PageEncoder, lines?: LineWriter): ChunkEncoder {
  const utf8 = new TextEncoder();
  let records = 0;
  return {
    add(page) {
      if (page.length === 0) return;
      const text = encode(page);
      out.ensure(text.length * 3);
      out.length += utf8.encodeInto(text, out.bytes.subarray(out.length)).written;
      records += page.length;
    },
    addLine:
      lines === undefined
        ? undefined
        : (bytes, from, to, topLevel) => {
            if (!lines(bytes, from, to, topLevel, out)) return false;
            records++;
            return true;
          },
    finish(spare) {
      const page = { records, bytes: pageBytes(out.bytes.subarray(0, out.length), spare) };
      out.length = 0;
      records = 0;
      return page;
    },
  };
}

/** A text page's buffer (the module loads with the first encoder: not on the CLI's start-up path). */
async function page(): Promise<TextOut> {
  return new (await import('../fast/tape-text.js')).TextOut();
}

/** json, jsonl and ndjson records from their bytes, unless `--fields` reshapes them. */
async function jsonLines(spec: EncoderSpec, prefix: string, suffix: string) {
  return spec.projected
    ? undefined
    : (await import('../fast/json-bytes.js')).jsonLines(prefix, suffix);
}

/** csv and tsv rows from their lines' bytes, when every column can be read from them. */
async function delimitedLines(spec: EncoderSpec, format: 'csv' | 'tsv') {
  const { DelimitedRows } = await import('../fast/delimited-bytes.js');
  return DelimitedRows.for(format, spec.columns, spec.sanitize)?.write;
}

/**
 * `byteLines`: the text formats (csv, tsv, json, jsonl) read lines from
 * their bytes (fast/delimited-bytes.ts, json-bytes.ts) rather than
 * through JSON.parse. Their loops run slow until V8 has compiled them, ~0.1 s
 * of CPU a worker: below ~16 MB of input that costs more than it saves
 * (record-source.ts decides). Parquet's byte reader is used at any size.
 */
export async function loadChunkEncoder(spec: EncoderSpec, bytes = true): Promise<ChunkEncoder> {
  // Workers do not start with the fast paths off; this holds for any other caller.
  const byteLines = bytes && fastPathsOn();
  switch (spec.format) {
    case 'json':
      return textChunks(
        await page(),
        (await import('../formats/json.js')).jsonEncoder(spec),
        byteLines ? await jsonLines(spec, ',\n', '') : undefined,
      );
    case 'jsonl':
    case 'ndjson':
      return textChunks(
        await page(),
        (await import('../formats/json.js')).jsonLinesEncoder(spec),
        byteLines ? await jsonLines(spec, '', '\n') : undefined,
      );
    case 'csv':
      return textChunks(
        await page(),
        (await import('../formats/csv.js')).csvEncoder(spec),
        byteLines ? await delimitedLines(spec, 'csv') : undefined,
      );
    case 'tsv':
      return textChunks(
        await page(),
        (await import('../formats/tsv.js')).tsvEncoder(spec),
        byteLines ? await delimitedLines(spec, 'tsv') : undefined,
      );
    case 'xml':
      return textChunks(await page(), await (await import('../formats/xml.js')).xmlEncoder(spec));
    case 'rss':
      return textChunks(await page(), await (await import('../formats/rss.js')).rssEncoder(spec));
    case 'parquet': {
      const encoder = await (await import('../formats/parquet.js')).rowGroupEncoder(spec);
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
