/** The contract between the export driver (export.ts) and one format module. */
import type { Column } from './columns.js';
import type { RowGroupMeta } from './fast/parquet/meta.js';
import type { Sink } from './sink.js';
import type { ApiRecord, FormatName, RecordKind } from './types.js';

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
  /** rss: the API's base URL, for relative record links (`/v1/people/42`). */
  readonly linkBase?: string | undefined;
  readonly terminalWidth: number;
  /** `table`: borderless (default) or boxed. */
  readonly tableStyle?: 'plain' | 'box' | undefined;
  readonly warn: (message: string) => void;
}

/**
 * What it takes to encode records exactly as a writer does, as plain data:
 * `news convert` sends it to its worker threads (parallel/), which encode
 * pages that the writer then only copies to the sink.
 */
export interface EncoderSpec {
  readonly format: FormatName;
  readonly columns: readonly Column[];
  readonly projected: boolean;
  readonly kind: RecordKind;
  readonly sanitize: boolean;
  /** rss: the base a relative record link is resolved against (none: such a link is left out). */
  readonly linkBase?: string | undefined;
}

export function encoderSpec(ctx: WriterContext, format: FormatName): EncoderSpec {
  return {
    format,
    columns: ctx.columns,
    projected: ctx.projected,
    kind: ctx.kind,
    sanitize: ctx.sanitize,
    linkBase: ctx.linkBase,
  };
}

/** Records encoded elsewhere (a worker thread), ready for the writer that gave the spec. */
export interface EncodedPage {
  readonly records: number;
  /** The page's bytes; for Parquet one row group, offsets counted from its first byte. */
  readonly bytes: Uint8Array;
  /** Parquet: the row group's metadata (RowGroup and PageIndexes), and values that did not fit. */
  readonly parquet?: RowGroupMeta;
}

/** A page in the export pipeline: records, or records already encoded. */
export type Page = readonly ApiRecord[] | EncodedPage;

export function isEncoded(page: Page): page is EncodedPage {
  return !Array.isArray(page);
}

export interface FormatWriter {
  /** Writes one page; resolves when the sink can take more. */
  writePage(records: readonly ApiRecord[]): Promise<void>;
  /** Writes the trailer (closing bracket, zip directory, Parquet footer). */
  finish(): Promise<void>;
  /** Set when pages may also be encoded off the main thread, by this spec. */
  readonly encoder?: EncoderSpec;
  /**
   * Writes a page encoded by `encoder`'s spec. Its bytes are not kept past the
   * returned promise beyond what the sink keeps (a sink that copies lets the
   * source reuse them: `PageSource.encodeWith`).
   */
  writeEncoded?(page: EncodedPage): Promise<void>;
}

/** A page source that can take encoded pages once it knows how the writer encodes. */
export interface PageSource extends AsyncIterable<Page> {
  /**
   * Called once the writer exists (undefined: the format encodes on the main
   * thread only), before the first page is written. True: the records
   * already given out come again (encoded), so the caller drops them.
   * `reusable`: an encoded page's bytes may be used again once the next page
   * is asked for (the sink copies what it is given).
   */
  encodeWith?(spec: EncoderSpec | undefined, reusable?: boolean): boolean | undefined;
}
