/**
 * The metadata of one Parquet row group encoded on its own (formats/parquet.ts),
 * as carried by an encoded page (format-writer.ts). Types only, in a file of
 * their own so that the page contract does not import the Parquet writer.
 */
import type { ParquetWriter } from 'hyparquet-writer';

export type RowGroup = ParquetWriter['row_groups'][number];
export type PageIndexes = ParquetWriter['pendingIndexes'][number];

export interface RowGroupMeta {
  readonly rowGroup: RowGroup;
  /** The column chunks' page indexes; each `chunk` is the same object as in `rowGroup.columns`. */
  readonly indexes: PageIndexes[];
  /** Values that did not fit their column's type, written as null. */
  readonly misfits: number;
}
