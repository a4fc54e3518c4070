/**
 * The Parquet footer (FileMetaData), built as row groups arrive instead of
 * all at once at the end. hyparquet-writer keeps every row group's metadata
 * until `finish()` and then serializes them together: at 100,000 articles
 * (300 row groups of 63 column chunks) that took ~750 ms on one thread after
 * the last row was written, and the metadata objects grew with the file.
 *
 * Here each row group is serialized by hyparquet-writer's own
 * `writeMetadata` as soon as it is placed (the main thread is mostly idle
 * while the workers encode), and only its bytes are kept. In Thrift's compact
 * protocol a struct in a list is encoded on its own (its field ids count from
 * zero), so a footer with one row group is the footer with none plus that
 * group's bytes after the list header: the group's bytes are cut out of the
 * one and spliced into the other. The file is byte for byte what
 * `ParquetWriter.finish()` writes (a test compares them).
 *
 * A row group with page indexes (a column chunk of more than one page) waits
 * for the end: its index offsets are known only once the indexes are written,
 * just before the footer.
 */
import type { KeyValue, SchemaElement } from 'hyparquet-writer';
import type { FileMetadata, FooterInternals } from '../hyparquet-internals.js';
import type { PageIndexes, RowGroup } from './meta.js';

type Writer = import('hyparquet-writer').Writer;

/** Thrift compact protocol: the element type of a list of structs. */
const STRUCT = 12;
const PAR1 = 0x31524150;

export interface FooterOptions {
  readonly schema: SchemaElement[];
  readonly kvMetadata: KeyValue[];
  readonly createdBy: string;
  /** hyparquet-writer's metadata and index writers (loadFooterInternals). */
  readonly hyparquet: FooterInternals;
}

export class ParquetFooter {
  /** Serialized row groups, or those waiting for their page indexes, in file order. */
  private readonly groups: (Uint8Array | RowGroup)[] = [];
  private readonly waiting: PageIndexes[] = [];
  private rows = 0n;
  /** Bytes before the row-group list's header (with no rows) and after the list. */
  private readonly head: number;
  private readonly tail: number;

  constructor(private readonly options: FooterOptions) {
    const empty = this.metadata([], 0n);
    // The one-group footer is needed to tell head from tail: a throwaway group.
    const one = this.metadata([{ columns: [], total_byte_size: 0n, num_rows: 0n }], 0n);
    let at = 0;
    while (empty[at] === one[at]) at++;
    this.head = at;
    this.tail = empty.length - at - 1;
  }

  /** FileMetaData with these row groups, without the trailing length. */
  private metadata(rowGroups: RowGroup[], rows: bigint): Uint8Array {
    const { ByteWriter, writeMetadata } = this.options.hyparquet;
    const writer = new ByteWriter(4096);
    writeMetadata(writer, {
      version: 2,
      created_by: this.options.createdBy,
      schema: this.options.schema,
      num_rows: rows,
      row_groups: rowGroups,
      key_value_metadata: this.options.kvMetadata,
    } as FileMetadata);
    return new Uint8Array(writer.buffer, 0, writer.offset - 4);
  }

  /** A row group, its offsets final (where it lies in the file). */
  add(rowGroup: RowGroup, indexes: readonly PageIndexes[]): void {
    this.rows += rowGroup.num_rows;
    const paged = indexes.filter((i) => i.offsetIndex !== undefined || i.columnIndex !== undefined);
    if (paged.length > 0) {
      this.groups.push(rowGroup);
      this.waiting.push(...paged);
      return;
    }
    const bytes = this.metadata([rowGroup], 0n);
    this.groups.push(bytes.slice(this.head + 1, bytes.length - this.tail));
  }

  /** Writes the waiting page indexes, then the footer: metadata, its length, PAR1. */
  write(writer: Writer): void {
    this.options.hyparquet.writeIndexes(writer, this.waiting);
    const empty = this.metadata([], this.rows);
    const start = writer.offset;
    writer.appendBytes(empty.subarray(0, empty.length - this.tail - 1));
    const n = this.groups.length;
    if (n < 15) writer.appendUint8((n << 4) | STRUCT);
    else {
      writer.appendUint8((15 << 4) | STRUCT);
      writer.appendVarInt(n);
    }
    for (const group of this.groups) {
      if (group instanceof Uint8Array) writer.appendBytes(group);
      else {
        const bytes = this.metadata([group], 0n);
        writer.appendBytes(bytes.subarray(this.head + 1, bytes.length - this.tail));
      }
    }
    writer.appendBytes(empty.subarray(empty.length - this.tail));
    writer.appendUint32(writer.offset - start);
    writer.appendUint32(PAR1);
  }
}
