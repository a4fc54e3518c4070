/**
 * The writer shared by the text formats (json, jsonl, csv, tsv, xml, rss): a
 * header, pages encoded by the format's page encoder, a footer. The same
 * encoder runs in convert's worker threads, so a page encoded there and one
 * encoded here are the same bytes.
 */
import type { EncoderSpec, FormatWriter, WriterContext } from './format-writer.js';
import type { ApiRecord } from './types.js';

/** Encodes a page of records to text, the same way on every thread. */
export type PageEncoder = (records: readonly ApiRecord[]) => string;

export interface TextFrame {
  readonly header: string;
  /** The trailer; `wroteRecords` tells whether any record came before it. */
  readonly footer: (wroteRecords: boolean) => string;
  /**
   * Every record's text starts with a separator of this many ASCII characters
   * (json's `,`), left out before the export's first record.
   */
  readonly separatorLength?: number;
}

/** `spec` is the one `encode` was made from; the workers make theirs from it too. */
export async function textWriter(
  ctx: WriterContext,
  spec: EncoderSpec,
  encode: PageEncoder,
  frame: TextFrame,
): Promise<FormatWriter> {
  const skip = frame.separatorLength ?? 0;
  let wrote = false;
  if (frame.header !== '') await ctx.sink.write(frame.header);
  return {
    encoder: spec,
    async writePage(records) {
      if (records.length === 0) return;
      const text = encode(records);
      await ctx.sink.write(wrote || skip === 0 ? text : text.slice(skip));
      wrote = true;
    },
    async writeEncoded(page) {
      if (page.records === 0) return;
      await ctx.sink.write(wrote || skip === 0 ? page.bytes : page.bytes.subarray(skip));
      wrote = true;
    },
    async finish() {
      await ctx.sink.write(frame.footer(wrote));
    },
  };
}
