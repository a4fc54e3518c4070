/**
 * One column chunk of a row group, written from the typed stores of
 * fast/parquet/columns.ts: definition levels, a dictionary when it at least
 * halves the column (hyparquet-writer's rule), PLAIN values otherwise (text
 * compressed straight from its column's buffer), RLE for flags, min/max
 * statistics on typed columns, DATA_PAGE_V2 pages of about 1 MB, SNAPPY:
 * the encodings hyparquet-writer chooses for the same values (the dictionary
 * decision: fast/parquet/dictionary.ts). Its page-header and
 * RLE/bit-packing code is used as is; the chunk's metadata is packed as
 * numbers (fast/parquet/meta.ts) and becomes hyparquet-writer's objects where its
 * footer writer serializes them.
 *
 * Why not hyparquet-writer's `writeColumn`: it takes an array of JS values
 * per column (a BigInt per integer, a string or byte view per text), and
 * allocates as it goes (level arrays, slices, filtered copies, a buffer per
 * page grown by doubling, a Map and a TextEncoder call per dictionary
 * value): about a third of a convert worker's time went there and to the
 * collector after it (docs/PARQUET.md, "DuckDB's time").
 */
import type { ByteWriter, SchemaElement } from 'hyparquet-writer';
import type { PageHeader, PageInternals } from '../hyparquet-internals.js';
import type { ColumnStore, NumberColumn, TextColumn } from './columns.js';
import { NULL_FLAG, TRUE } from './columns.js';
import { Dictionary, type Sizes, buildDictionary } from './dictionary.js';
import {
  COLUMN_FIELDS,
  COMPRESSED_SIZE,
  DATA_OFFSET,
  DATA_PAGES,
  DICTIONARY_OFFSET,
  ENCODING,
  ENCODINGS,
  FILE_OFFSET,
  MAX,
  MIN,
  NULL_COUNT,
  UNCOMPRESSED_SIZE,
} from './meta.js';
import type { DataEncoding } from './meta.js';

export type Compress = (bytes: Uint8Array) => Uint8Array;

/** hyparquet-writer's default page size: a page ends at the first row past 1 MB of values. */
const PAGE_SIZE = 1024 * 1024;

export interface ColumnPlan {
  /** The leaf's schema element (its name is the column's). */
  readonly element: SchemaElement;
  /** Min/max statistics (typed columns only, docs/PARQUET.md). */
  readonly statistics: boolean;
}

/** A growable scratch buffer, used again for every page. */
class Scratch {
  bytes = new Uint8Array(64 * 1024);
  view = new DataView(this.bytes.buffer);
  length = 0;

  /** Room for `size` more bytes. */
  ensure(size: number): void {
    if (this.length + size <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + size));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }
}

export class ColumnChunkWriter {
  private readonly data = new Scratch();
  private readonly dictionary = new Dictionary();
  private levels: Uint8Array = new Uint8Array(256);
  private readonly levelWriter: ByteWriter;
  private readonly rle: ByteWriter;
  /** Per row in a page: its value (flag or dictionary index), for the RLE writer. */
  private packed = new Int32Array(256);

  /** `hyparquet`: its page header and RLE writers (loadPageInternals). */
  constructor(
    private readonly hyparquet: PageInternals,
    private readonly compress: Compress,
  ) {
    this.levelWriter = new hyparquet.ByteWriter(1024);
    this.rle = new hyparquet.ByteWriter(1024);
  }

  /**
   * Writes `store`'s values as one column chunk at `out`'s offset (the
   * group's first byte at offset 0), and its metadata as numbers at
   * `fields[at…]` (fast/parquet/meta.ts); the pages of a chunk of more than one
   * go to `pages`.
   */
  write(
    out: ByteWriter,
    plan: ColumnPlan,
    store: ColumnStore,
    fields: Float64Array,
    at: number,
    pages: number[],
  ): void {
    const rows = store.rows;
    if (this.levels.length < rows) this.levels = new Uint8Array(rows * 2);
    if (this.packed.length < rows) this.packed = new Int32Array(rows * 2);
    const sizes = this.nulls(store);
    const type = plan.element.type!;
    fields[at + FILE_OFFSET] = out.offset;
    fields[at + DICTIONARY_OFFSET] = -1;
    let uncompressed = 0;
    let encoding: DataEncoding;
    let valueSize: (row: number) => number;
    /** The page's values, encoded: in `data`, or (PLAIN text) in the column's own buffer. */
    let writeValues: (from: number, to: number) => Uint8Array;
    let entries = 0;

    if (store.type === 'bool') {
      // hyparquet-writer's choice: RLE once a column has more than 16 values.
      encoding = rows > 16 ? 'RLE' : 'PLAIN';
      valueSize = () => 0.125;
      writeValues = (from, to) => {
        this.flags(store.values, from, to, encoding === 'RLE');
        return this.data.bytes.subarray(0, this.data.length);
      };
    } else if (buildDictionary(this.dictionary, store, this.levels, sizes)) {
      entries = this.dictionary.size;
      fields[at + DICTIONARY_OFFSET] = out.offset;
      uncompressed += this.dictionaryPage(out, store, entries);
      encoding = 'RLE_DICTIONARY';
      valueSize = () => 4;
      let next = 0; // the dictionary's indexes are per non-null row, in order
      writeValues = (from, to) => {
        next = this.indexes(from, to, next, entries);
        return this.data.bytes.subarray(0, this.data.length);
      };
    } else {
      encoding = 'PLAIN';
      if (store.type === 'string' || store.type === 'json') {
        const text = store;
        valueSize = (row) => text.length(row);
        writeValues = (from, to) => this.plainText(text, from, to);
      } else {
        const numbers = store as NumberColumn;
        valueSize = () => 8;
        writeValues = (from, to) => {
          this.plainNumbers(numbers, type === 'INT64', from, to);
          return this.data.bytes.subarray(0, this.data.length);
        };
      }
    }

    fields[at + DATA_OFFSET] = out.offset;
    const column = at / COLUMN_FIELDS;
    const firstPage = pages.length;
    let count = 0;
    let from = 0;
    while (from < rows) {
      let to = from;
      let bytes = 0;
      for (; to < rows; to++) {
        if (bytes >= PAGE_SIZE && to > from) break;
        if (this.levels[to] === 1) bytes += valueSize(to);
      }
      const pageStart = out.offset;
      this.data.length = 0;
      uncompressed += this.dataPage(out, from, to, encoding, writeValues(from, to));
      pages.push(column, pageStart, out.offset - pageStart, from);
      count++;
      from = to;
    }
    // Page locations are kept for chunks of more than one page only (as hyparquet-writer's offset index).
    if (count < 2) pages.length = firstPage;

    fields[at + COMPRESSED_SIZE] = out.offset - fields[at + FILE_OFFSET]!;
    fields[at + UNCOMPRESSED_SIZE] = uncompressed;
    fields[at + ENCODING] = ENCODINGS.indexOf(encoding);
    fields[at + DATA_PAGES] = count;
    fields[at + NULL_COUNT] = -1;
    if (plan.statistics) this.statistics(store, fields, at);
  }

  /** Fills the definition levels (1: a value, 0: null); the non-null count and their PLAIN size. */
  private nulls(store: ColumnStore): Sizes {
    const rows = store.rows;
    const levels = this.levels;
    let nonNull = 0;
    let plain = 0;
    if (store.type === 'bool') {
      for (let i = 0; i < rows; i++) {
        const present = store.values[i] !== NULL_FLAG ? 1 : 0;
        levels[i] = present;
        nonNull += present;
      }
    } else if (store.type === 'string' || store.type === 'json') {
      const starts = store.values;
      for (let i = 0; i < rows; i++) {
        if (starts[i]! < 0) levels[i] = 0;
        else {
          levels[i] = 1;
          nonNull++;
          plain += 4 + store.length(i);
        }
      }
    } else {
      const values = store.values;
      for (let i = 0; i < rows; i++) {
        const present = Number.isNaN(values[i]!) ? 0 : 1;
        levels[i] = present;
        nonNull += present;
      }
      plain = nonNull * 8;
    }
    return { nonNull, plain };
  }

  /** The dictionary page: its entries PLAIN. Returns its uncompressed size with the header. */
  private dictionaryPage(
    out: ByteWriter,
    store: NumberColumn | TextColumn,
    entries: number,
  ): number {
    const rowOf = this.dictionary.rowOf;
    this.data.length = 0;
    if (store.type === 'string' || store.type === 'json') {
      const data = this.data;
      const bytes = store.out.bytes;
      for (let e = 0; e < entries; e++) {
        const row = rowOf[e]!;
        const start = store.values[row]!;
        const end = start + 4 + store.length(row);
        data.ensure(end - start);
        if (end - start < 32)
          for (let i = start; i < end; i++) data.bytes[data.length++] = bytes[i]!;
        else {
          data.bytes.set(bytes.subarray(start, end), data.length);
          data.length += end - start;
        }
      }
    } else {
      const int = store.type !== 'float';
      this.data.ensure(entries * 8);
      for (let e = 0; e < entries; e++) this.number(store.values[rowOf[e]!]!, int);
    }
    const raw = this.data.bytes.subarray(0, this.data.length);
    const compressed = this.compress(raw);
    const headerStart = out.offset;
    this.hyparquet.writePageHeader(out, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: raw.length,
      compressed_page_size: compressed.length,
      dictionary_page_header: { num_values: entries, encoding: 'PLAIN' },
    } as PageHeader);
    const header = out.offset - headerStart;
    out.appendBytes(compressed);
    return header + raw.length;
  }

  /** One DATA_PAGE_V2 of rows [from, to): levels, then `raw` (the encoded values), compressed. */
  private dataPage(
    out: ByteWriter,
    from: number,
    to: number,
    encoding: DataEncoding,
    raw: Uint8Array,
  ): number {
    const levels = this.levels.subarray(from, to);
    let nulls = 0;
    for (let i = 0; i < levels.length; i++) nulls += 1 - levels[i]!;
    const lw = this.levelWriter;
    lw.index = 0;
    lw.offset = 0;
    const levelBytes = this.hyparquet.writeRleBitPackedHybrid(lw, levels, 1);
    const compressed = this.compress(raw);
    const headerStart = out.offset;
    this.hyparquet.writePageHeader(out, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: levelBytes + raw.length,
      compressed_page_size: levelBytes + compressed.length,
      data_page_header_v2: {
        num_values: to - from,
        num_nulls: nulls,
        num_rows: to - from,
        encoding,
        definition_levels_byte_length: levelBytes,
        repetition_levels_byte_length: 0,
        is_compressed: true,
      },
    } as PageHeader);
    const header = out.offset - headerStart;
    out.appendBytes(new Uint8Array(lw.buffer, 0, levelBytes));
    out.appendBytes(compressed);
    return header + levelBytes + raw.length;
  }

  /** Rows [from, to) PLAIN: the stretch of the column's buffer their values take (each after its length). */
  private plainText(store: TextColumn, from: number, to: number): Uint8Array {
    let first = from;
    while (first < to && store.values[first]! < 0) first++;
    if (first === to) return store.out.bytes.subarray(0, 0);
    let last = to - 1;
    while (store.values[last]! < 0) last--;
    const start = store.values[first]!;
    return store.out.bytes.subarray(start, store.values[last]! + 4 + store.length(last));
  }

  /** A number as INT64 (a safe integer, so its two halves are exact) or DOUBLE, little-endian. */
  private number(n: number, int: boolean): void {
    const data = this.data;
    if (int) {
      const high = Math.floor(n / 4294967296);
      data.view.setUint32(data.length, n - high * 4294967296, true);
      data.view.setInt32(data.length + 4, high, true);
    } else data.view.setFloat64(data.length, n, true);
    data.length += 8;
  }

  private plainNumbers(store: NumberColumn, int: boolean, from: number, to: number): void {
    this.data.ensure((to - from) * 8);
    const values = store.values;
    for (let row = from; row < to; row++) {
      if (this.levels[row] === 1) this.number(values[row]!, int);
    }
  }

  /** Flags of rows [from, to): RLE (with its 4-byte length) or PLAIN bit-packed. */
  private flags(values: Uint8Array, from: number, to: number, rle: boolean): void {
    const packed = this.packed;
    let n = 0;
    for (let row = from; row < to; row++) {
      if (this.levels[row] === 1) packed[n++] = values[row] === TRUE ? 1 : 0;
    }
    const data = this.data;
    if (rle) {
      const w = this.rle;
      w.index = 0;
      w.offset = 0;
      const length = this.hyparquet.writeRleBitPackedHybrid(w, packed.subarray(0, n), 1);
      data.ensure(4 + length);
      data.view.setUint32(data.length, length, true);
      data.bytes.set(new Uint8Array(w.buffer, 0, length), data.length + 4);
      data.length += 4 + length;
      return;
    }
    data.ensure((n + 7) >> 3);
    for (let i = 0; i < n; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8 && i + j < n; j++) byte |= packed[i + j]! << j;
      data.bytes[data.length++] = byte;
    }
  }

  /** The dictionary indexes of rows [from, to): bit width, then RLE/bit-packed. Returns the next index. */
  private indexes(from: number, to: number, next: number, entries: number): number {
    let n = 0;
    const packed = this.packed;
    for (let row = from; row < to; row++) {
      if (this.levels[row] === 1) packed[n++] = this.dictionary.indexes[next++]!;
    }
    const width = Math.max(1, Math.ceil(Math.log2(entries)));
    const w = this.rle;
    w.index = 0;
    w.offset = 0;
    const length = this.hyparquet.writeRleBitPackedHybrid(w, packed.subarray(0, n), width);
    const data = this.data;
    data.ensure(1 + length);
    data.bytes[data.length] = width;
    data.bytes.set(new Uint8Array(w.buffer, 0, length), data.length + 1);
    data.length += 1 + length;
    return next;
  }

  /** Null count, min and max (NaN when all are null; flags as 0 and 1) at fields[at…]. */
  private statistics(store: ColumnStore, fields: Float64Array, at: number): void {
    if (store.type === 'string' || store.type === 'json') {
      throw new Error('parquet: no statistics are kept for text columns');
    }
    let nulls = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < store.rows; i++) {
      const v = store.values[i]!;
      const n = store.type === 'bool' ? (v === NULL_FLAG ? Number.NaN : v === TRUE ? 1 : 0) : v;
      if (Number.isNaN(n)) nulls++;
      else {
        if (n < min) min = n;
        if (n > max) max = n;
      }
    }
    const any = nulls < store.rows;
    fields[at + NULL_COUNT] = nulls;
    fields[at + MIN] = any ? min : Number.NaN;
    fields[at + MAX] = any ? max : Number.NaN;
  }
}
