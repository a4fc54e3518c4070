/**
 * Parquet (docs/PARQUET.md). Rows are collected column by column in typed
 * stores (fast/parquet/columns.ts) — the records themselves are dropped page by
 * page — and encoded as one row group every ROW_GROUP_ROWS rows, so memory
 * holds one row group at most. Our own column-chunk writer encodes the pages
 * (fast/parquet/pages.ts, SNAPPY by hysnappy); hyparquet-writer writes the page
 * headers and the footer. A row group is encoded on its own (RowGroupEncoder:
 * bytes, and metadata packed as numbers with offsets from its first byte,
 * fast/parquet/meta.ts), then placed in the file by the writer: so `news
 * convert`'s worker threads encode row groups in parallel (parallel/), read
 * from their lines' bytes (parquet-bytes.ts), and the writer writes them in
 * order.
 *
 * Column names are the dotted names with `.` replaced by `_`
 * (`sentiment_overall_score`): Spark and other engines read a dot as struct
 * access. The dotted names are kept in the file's key-value metadata.
 */
import type { Column, ColumnType } from '../columns.js';
import { encoderSpec } from '../format-writer.js';
import type { EncodedPage, EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { cellReader } from '../flatten.js';
import type { ApiRecord } from '../types.js';
import type { Sink } from '../sink.js';
import { COLUMN_FIELDS, rowGroupOf } from '../fast/parquet/meta.js';
import { pageBytes } from '../parallel/page-bytes.js';
import { columnStore } from '../fast/parquet/columns.js';
import type { ParquetFooter } from '../fast/parquet/footer.js';
import {
  loadByteWriter,
  loadFooterInternals,
  loadPageInternals,
} from '../fast/hyparquet-internals.js';

/** 1,000 peaked at 321 MB at 100k articles, over the 300 MB budget (docs/PARQUET.md). */
export const ROW_GROUP_ROWS = 500;

/** `sentiment.overall.score` → `sentiment_overall_score`; repeats get a `_2` suffix. */
export function parquetNames(columns: readonly Column[]): string[] {
  const used = new Set<string>();
  return columns.map((c) => {
    const base = c.name.replace(/[.\s]/g, '_');
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}

interface SchemaElement {
  name: string;
  type?: 'BOOLEAN' | 'INT64' | 'DOUBLE' | 'BYTE_ARRAY';
  converted_type?: 'UTF8' | 'TIMESTAMP_MILLIS';
  logical_type?: { type: 'TIMESTAMP'; isAdjustedToUTC: boolean; unit: 'MILLIS' };
  repetition_type?: 'OPTIONAL';
  num_children?: number;
}

function element(name: string, type: ColumnType): SchemaElement {
  switch (type) {
    case 'int':
      return { name, type: 'INT64', repetition_type: 'OPTIONAL' };
    case 'float':
      return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
    case 'bool':
      return { name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' };
    case 'timestamp':
      return {
        name,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        repetition_type: 'OPTIONAL',
      };
    case 'string':
    case 'json':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
  }
}

type ByteWriterClass = typeof import('hyparquet-writer').ByteWriter;
/** A hyparquet Writer over the sink; `passBytes` hands encoded bytes on without copying them. */
export type SinkWriter = import('hyparquet-writer').Writer & { passBytes(bytes: Uint8Array): void };

/**
 * A hyparquet Writer that hands its bytes to the sink: `ensure` moves full
 * 1 MB chunks aside, `flush` (called after each row group) writes them and
 * waits for the sink, which is how backpressure reaches the encoder.
 */
export function sinkWriter(sink: Sink, ByteWriter: ByteWriterClass): SinkWriter {
  const CHUNK = 1024 * 1024;
  const pending: Uint8Array[] = [];
  const writer = new ByteWriter(CHUNK * 2);
  const park = (): void => {
    if (writer.index === 0) return;
    pending.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
    writer.index = 0;
  };
  const baseEnsure = writer.ensure.bind(writer);
  writer.ensure = (size: number): void => {
    if (writer.index > CHUNK) park();
    baseEnsure(size);
  };
  const drain = async (): Promise<void> => {
    park();
    while (pending.length > 0) await sink.write(pending.shift()!);
  };
  const passBytes = (bytes: Uint8Array): void => {
    park();
    pending.push(bytes);
    writer.offset += bytes.length;
  };
  return Object.assign(writer, { flush: drain, finish: drain, passBytes });
}

/** The file's schema: a root and one optional leaf per column. */
export function schemaOf(columns: readonly Column[]): SchemaElement[] {
  const names = parquetNames(columns);
  return [
    { name: 'root', num_children: columns.length },
    ...columns.map((c, i) => element(names[i]!, c.type)),
  ];
}

const PAR1 = 0x31524150;

/** The file's writer and its key-value metadata: the column names as dotted paths. */
export function fileMetadata(columns: readonly Column[]) {
  const names = parquetNames(columns);
  return {
    createdBy: 'news CLI (hyparquet-writer)',
    kvMetadata: [
      {
        key: 'news.columns',
        value: JSON.stringify(columns.map((c, i) => ({ name: names[i]!, path: c.name }))),
      },
    ],
  };
}

/**
 * Min/max statistics (for row-group pruning) on typed columns only. Text
 * columns go without: their bounds, cut to 16 bytes, prune next to nothing,
 * and at 100,000 articles their metadata (held until the footer, then turned
 * into the footer's thrift objects all at once) cost ~50 MB at the peak.
 */
export const HAS_STATISTICS: Record<ColumnType, boolean> = {
  int: true,
  float: true,
  bool: true,
  timestamp: true,
  string: false,
  json: false,
};

/**
 * Collects rows and encodes them as one row group. Used by the writer and, in
 * the same way, by convert's workers.
 */
export interface RowGroupEncoder {
  add(record: ApiRecord): void;
  /**
   * Convert's byte reader (parquet-bytes.ts): adds the record on
   * `bytes[from, to)`, one JSON object with a line end right after it, as a
   * row; false when that line must be read the ordinary way (nothing added).
   * Undefined when the columns are of a kind the byte reader does not take.
   */
  readonly addLine:
    | ((bytes: Uint8Array, from: number, to: number, topLevel: boolean) => boolean)
    | undefined;
  readonly rows: number;
  /** The buffered rows as one row group (its bytes in `spare` when they fit); undefined when there are none. */
  flush(spare?: ArrayBufferLike): EncodedPage | undefined;
}

/**
 * Detaches a buffer of no size, before any code of the writer is compiled.
 * Snappy's WebAssembly memory grows with the first big page, which detaches
 * its old buffer; in a thread, the first detach throws away every function
 * V8 compiled assuming none would happen (parallel/shared.ts), and a convert
 * worker compiled ~40 of them twice. After this one, later detaches cost
 * nothing more.
 */
function detachOnce(): void {
  const buffer = new ArrayBuffer(0);
  structuredClone(buffer, { transfer: [buffer] });
}

export async function rowGroupEncoder(spec: EncoderSpec): Promise<RowGroupEncoder> {
  const [hyparquet, { snappyCompressor }, { ColumnChunkWriter }, { ByteRows }] = await Promise.all([
    loadPageInternals(),
    import('hysnappy'),
    import('../fast/parquet/pages.js'),
    import('../fast/parquet-bytes.js'),
  ]);
  // hysnappy (WebAssembly, from hyparquet's authors) compresses ~4× faster
  // than hyparquet-writer's JavaScript Snappy, as compactly (docs/PARQUET.md).
  const chunks = new ColumnChunkWriter(hyparquet, snappyCompressor());
  detachOnce();
  const columns = spec.columns;
  const schema = schemaOf(columns);
  const plans = columns.map((c, i) => ({
    element: schema[i + 1]!,
    statistics: HAS_STATISTICS[c.type],
  }));
  let misfits = 0;
  const cells = columns.map(cellReader);
  const stores = columns.map((c) => columnStore(c.type));
  const bytes = ByteRows.for(columns, stores);
  let rows = 0;
  // One buffer for every group: growing a fresh one by doubling left ~15 MB
  // of garbage ArrayBuffers per group, which the GC reclaims late.
  const scratch = new hyparquet.ByteWriter(2 * 1024 * 1024);

  return {
    add(record) {
      for (let i = 0; i < columns.length; i++) {
        if (!stores[i]!.add(cells[i]!(record))) misfits++;
      }
      rows++;
    },
    addLine:
      bytes === undefined
        ? undefined
        : (line, from, to, topLevel) => {
            if (!bytes.add(line, from, to, topLevel)) return false;
            rows++;
            return true;
          },
    get rows() {
      return rows;
    },
    flush(spare) {
      if (rows === 0) return undefined;
      scratch.index = 0;
      scratch.offset = 0;
      const fields = new Float64Array(columns.length * COLUMN_FIELDS);
      const pages: number[] = [];
      for (let i = 0; i < columns.length; i++) {
        chunks.write(scratch, plans[i]!, stores[i]!, fields, i * COLUMN_FIELDS, pages);
      }
      const page = {
        records: rows,
        bytes: pageBytes(new Uint8Array(scratch.buffer, 0, scratch.offset), spare),
        parquet: {
          rows,
          columns: fields,
          pages: new Float64Array(pages),
          misfits: misfits + (bytes?.misfits ?? 0),
        },
      };
      for (const store of stores) store.reset();
      rows = 0;
      misfits = 0;
      if (bytes !== undefined) bytes.misfits = 0;
      return page;
    },
  };
}

export async function createParquetWriter(ctx: WriterContext): Promise<FormatWriter> {
  // The footer's module (hyparquet-writer's metadata, which loads hyparquet,
  // ~35 ms) is loaded while the first row groups are made: the writer, which
  // convert's workers wait for, needs only the ByteWriter.
  const footerModule = import('../fast/parquet/footer.js');
  footerModule.catch(() => undefined); // awaited with the first row group
  const footerInternals = loadFooterInternals();
  footerInternals.catch(() => undefined); // awaited with the first row group
  const spec = encoderSpec(ctx, 'parquet');
  const writer = sinkWriter(ctx.sink, await loadByteWriter());
  writer.appendUint32(PAR1);
  const schema = schemaOf(ctx.columns);
  const leaves = schema.slice(1);
  let footer: ParquetFooter | undefined;
  const footerOf = async (): Promise<ParquetFooter> => {
    footer ??= new (await footerModule).ParquetFooter({
      hyparquet: await footerInternals,
      schema,
      ...fileMetadata(ctx.columns),
    });
    return footer;
  };
  // Made with the first page of records: when convert's workers encode every
  // row group, this thread never loads the encoder (hysnappy's WebAssembly).
  let encoder: RowGroupEncoder | undefined;
  let misfits = 0;
  /** Places an encoded row group at the writer's current offset. */
  const append = async (page: EncodedPage | undefined): Promise<void> => {
    const meta = page?.parquet;
    if (page === undefined) return;
    if (meta === undefined) throw new Error('parquet: a page without row group metadata');
    misfits += meta.misfits;
    const { rowGroup, indexes } = rowGroupOf(meta, writer.offset, leaves);
    writer.passBytes(page.bytes);
    (await footerOf()).add(rowGroup, indexes);
    await writer.flush?.();
  };

  return {
    encoder: spec,
    async writePage(records) {
      encoder ??= await rowGroupEncoder(spec);
      for (const r of records) {
        encoder.add(r);
        if (encoder.rows >= ROW_GROUP_ROWS) await append(encoder.flush());
      }
    },
    async writeEncoded(page) {
      if (page.records === 0) return;
      await append(encoder?.flush());
      await append(page);
    },
    async finish() {
      await append(encoder?.flush());
      (await footerOf()).write(writer);
      await writer.finish?.();
      if (misfits > 0) {
        ctx.warn(
          `parquet: ${misfits} value${misfits === 1 ? '' : 's'} did not fit the column type and were written as null`,
        );
      }
    },
  };
}
