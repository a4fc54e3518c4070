/**
 * TSV: tab-separated, one record per line, no quoting. Tab, LF, CR and
 * backslash inside a value are written as `\t`, `\n`, `\r`, `\\` (the
 * convention of PostgreSQL COPY and `mysql --batch`), so every line is one
 * record and a reader splits on tabs only.
 */
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { rowOf } from '../flatten.js';
import type { Cell } from '../flatten.js';
import { neutraliseFormula } from '../text.js';

const SPECIAL = /[\t\n\r\\]/g;
const ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

export function escapeTsv(s: string): string {
  return s.replace(SPECIAL, (ch) => ESCAPES[ch]!);
}

export function createTsvWriter(ctx: WriterContext): FormatWriter {
  const text = (c: Cell): string => {
    if (c === null) return '';
    if (typeof c !== 'string') return String(c);
    return escapeTsv(ctx.sanitize ? neutraliseFormula(c) : c);
  };
  let headerDone = false;
  const header = async (): Promise<void> => {
    if (headerDone) return;
    headerDone = true;
    await ctx.sink.write(ctx.columns.map((c) => escapeTsv(c.name)).join('\t') + '\n');
  };
  return {
    async writePage(records) {
      await header();
      let chunk = '';
      for (const r of records) chunk += rowOf(r, ctx.columns).map(text).join('\t') + '\n';
      await ctx.sink.write(chunk);
    },
    async finish() {
      await header();
    },
  };
}
