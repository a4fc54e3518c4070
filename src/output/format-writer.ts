/** The contract between the export driver (export.ts) and one format module. */
import type { Column } from './columns.js';
import type { Sink } from './sink.js';
import type { ApiRecord, RecordKind } from './types.js';

export interface WriterContext {
  readonly sink: Sink;
  /** Columns for tabular formats; for JSON-shaped formats, the `--fields` selection. */
  readonly columns: readonly Column[];
  /** True when `--fields` was given: JSON-shaped formats then project records. */
  readonly projected: boolean;
  readonly kind: RecordKind;
  readonly sanitize: boolean;
  readonly title: string | undefined;
  readonly link: string | undefined;
  readonly terminalWidth: number;
  readonly warn: (message: string) => void;
}

export interface FormatWriter {
  /** Writes one page; resolves when the sink can take more. */
  writePage(records: readonly ApiRecord[]): Promise<void>;
  /** Writes the trailer (closing bracket, zip directory, Parquet footer). */
  finish(): Promise<void>;
}
