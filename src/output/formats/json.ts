/**
 * `json`: one JSON array over all pages, written record by record so the
 * whole result never sits in memory. `jsonl`/`ndjson`: one record per line.
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
      for (const record of records) {
        await ctx.sink.write((first ? '[\n' : ',\n') + JSON.stringify(shape(record)));
        first = false;
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
      for (const record of records) await ctx.sink.write(JSON.stringify(shape(record)) + '\n');
    },
    async finish() {},
  };
}
