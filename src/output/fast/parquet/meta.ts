/**
 * The metadata of one Parquet row group encoded on its own (formats/parquet.ts),
 * as carried by an encoded page (format-writer.ts): packed as numbers, and
 * turned into hyparquet-writer's RowGroup and page-index objects (`rowGroupOf`)
 * only where the file's footer is built, once the group's place in the file
 * is known. A convert worker handing the objects themselves to the main
 * thread (a structured clone of ~1,000 objects a group) spent ~0.6 ms a
 * group in postMessage.
 *
 * This module imports hyparquet-writer's types only, so that the page
 * contract does not load the Parquet writer.
 */
import type { ParquetWriter, SchemaElement } from 'hyparquet-writer';

export type RowGroup = ParquetWriter['row_groups'][number];
export type PageIndexes = ParquetWriter['pendingIndexes'][number];
type ColumnChunk = RowGroup['columns'][number];
type Statistics = NonNullable<NonNullable<ColumnChunk['meta_data']>['statistics']> & {
  nan_count?: bigint;
};

/** A column chunk's numbers in `RowGroupMeta.columns`, offsets from the group's first byte. */
export const FILE_OFFSET = 0;
/** -1: no dictionary page. */
export const DICTIONARY_OFFSET = 1;
export const DATA_OFFSET = 2;
export const COMPRESSED_SIZE = 3;
export const UNCOMPRESSED_SIZE = 4;
/** An index in ENCODINGS. */
export const ENCODING = 5;
export const DATA_PAGES = 6;
/** -1: no statistics (text columns). */
export const NULL_COUNT = 7;
/** NaN when every value is null; flags as 0 and 1. */
export const MIN = 8;
export const MAX = 9;
export const COLUMN_FIELDS = 10;

export const ENCODINGS = ['PLAIN', 'RLE', 'RLE_DICTIONARY'] as const;
export type DataEncoding = (typeof ENCODINGS)[number];

/** Where a data page lies, in `RowGroupMeta.pages` (chunks of more than one page only). */
export const PAGE_COLUMN = 0;
export const PAGE_OFFSET = 1;
export const PAGE_SIZE_FIELD = 2;
export const PAGE_FIRST_ROW = 3;
export const PAGE_FIELDS = 4;

export interface RowGroupMeta {
  readonly rows: number;
  /** COLUMN_FIELDS numbers per column chunk, in schema order. */
  readonly columns: Float64Array;
  /** PAGE_FIELDS numbers per page of the chunks that have more than one. */
  readonly pages: Float64Array;
  /** Values that did not fit their column's type, written as null. */
  readonly misfits: number;
}

function statistics(fields: Float64Array, at: number, type: string): Statistics | undefined {
  const nulls = fields[at + NULL_COUNT]!;
  if (nulls < 0) return undefined;
  const stats: Statistics = { null_count: BigInt(nulls) };
  if (type === 'DOUBLE') stats.nan_count = 0n;
  const min = fields[at + MIN]!;
  const max = fields[at + MAX]!;
  if (Number.isNaN(min)) return stats;
  if (type === 'BOOLEAN') {
    stats.min_value = min === 1;
    stats.max_value = max === 1;
  } else if (type === 'DOUBLE') {
    // As hyparquet-writer writes them: a zero minimum as -0, a zero maximum as +0.
    stats.min_value = min === 0 ? -0 : min;
    stats.max_value = max === 0 ? 0 : max;
  } else {
    stats.min_value = BigInt(min);
    stats.max_value = BigInt(max);
  }
  return stats;
}

/**
 * The group's RowGroup and page indexes as hyparquet-writer makes them, its
 * offsets counted from `at` (where the group starts in the file); `leaves`
 * are the schema's column elements.
 */
export function rowGroupOf(
  meta: RowGroupMeta,
  at: number,
  leaves: readonly SchemaElement[],
): { rowGroup: RowGroup; indexes: PageIndexes[] } {
  const { columns: fields, pages } = meta;
  const columns: ColumnChunk[] = [];
  const indexes: PageIndexes[] = [];
  let uncompressed = 0;
  let compressed = 0;
  for (let c = 0; c < leaves.length; c++) {
    const f = c * COLUMN_FIELDS;
    const element = leaves[c]!;
    const type = element.type!;
    const encoding = ENCODINGS[fields[f + ENCODING]!]!;
    const dictionary = fields[f + DICTIONARY_OFFSET]!;
    const stats = statistics(fields, f, type);
    const meta_data: NonNullable<ColumnChunk['meta_data']> = {
      type,
      encodings: dictionary >= 0 ? ['PLAIN', encoding] : [encoding],
      path_in_schema: [element.name],
      codec: 'SNAPPY',
      num_values: BigInt(meta.rows),
      total_compressed_size: BigInt(fields[f + COMPRESSED_SIZE]!),
      total_uncompressed_size: BigInt(fields[f + UNCOMPRESSED_SIZE]!),
      data_page_offset: BigInt(at + fields[f + DATA_OFFSET]!),
    };
    if (dictionary >= 0) meta_data.dictionary_page_offset = BigInt(at + dictionary);
    if (stats !== undefined) {
      meta_data.statistics = stats;
      meta_data.encoding_stats = [
        ...(dictionary >= 0
          ? [{ page_type: 'DICTIONARY_PAGE' as const, encoding: 'PLAIN' as const, count: 1 }]
          : []),
        { page_type: 'DATA_PAGE_V2' as const, encoding, count: fields[f + DATA_PAGES]! },
      ];
    }
    const chunk: ColumnChunk = { meta_data, file_offset: BigInt(at + fields[f + FILE_OFFSET]!) };
    columns.push(chunk);
    uncompressed += fields[f + UNCOMPRESSED_SIZE]!;
    compressed += fields[f + COMPRESSED_SIZE]!;
    if (fields[f + DATA_PAGES]! > 1) {
      const page_locations = [];
      for (let p = 0; p < pages.length; p += PAGE_FIELDS) {
        if (pages[p + PAGE_COLUMN] !== c) continue;
        page_locations.push({
          offset: BigInt(at + pages[p + PAGE_OFFSET]!),
          compressed_page_size: pages[p + PAGE_SIZE_FIELD]!,
          first_row_index: BigInt(pages[p + PAGE_FIRST_ROW]!),
        });
      }
      indexes.push({ chunk, offsetIndex: { page_locations } });
    }
  }
  return {
    rowGroup: {
      columns,
      total_byte_size: BigInt(uncompressed),
      num_rows: BigInt(meta.rows),
      total_compressed_size: BigInt(compressed),
    },
    indexes,
  };
}
