/**
 * `json`: one JSON array over all pages, one record per line, so the whole
 * result never sits in memory (and `news convert` reads it back line by
 * line). `jsonl`/`ndjson`: one record per line. Each record's text goes to
 * the sink as it is, which encodes it into its batch and waits for 'drain'
 * only when the destination is full.
 */
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { projectRecord } from '../flatten.js';
import type { ApiRecord } from '../types.js';

function shaper(ctx: WriterContext): (r: ApiRecord) => ApiRecord {
  return ctx.projected ? (r) => projectRecord(r, ctx.columns) : (r) => r;
}

export function createJsonWriter(ctx: WriterContext): FormatWriter {
  const shape = shaper(ctx);
  let first = true;
  return {
    async writePage(records) {
      const sink = ctx.sink;
      for (const record of records) {
        await sink.write(first ? '[\n' : ',\n');
        first = false;
        await sink.write(JSON.stringify(shape(record)));
      }
    },
    async finish() {
      await ctx.sink.write(first ? '[]\n' : '\n]\n');
    },
  };
}

export function createJsonLinesWriter(ctx: WriterContext): FormatWriter {
  const shape = shaper(ctx);
  return {
    async writePage(records) {
      const sink = ctx.sink;
      for (const record of records) {
        await sink.write(JSON.stringify(shape(record)));
        await sink.write('\n');
      }
    },
    async finish() {},
  };
}
