/**
 * TSV: tab-separated, one record per line, no quoting. Tab, LF, CR and
 * backslash inside a value are written as `\t`, `\n`, `\r`, `\\` (the
 * convention of PostgreSQL COPY and `mysql --batch`), so every line is one
 * record and a reader splits on tabs only.
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { rowReader } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
import { neutraliseFormula } from '../text.js';

const SPECIAL = /[\t\n\r\\]/g;
const HAS_SPECIAL = /[\t\n\r\\]/;
const ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

export function escapeTsv(s: string): string {
  return HAS_SPECIAL.test(s) ? s.replace(SPECIAL, (ch) => ESCAPES[ch]!) : s;
}

export function tsvEncoder(spec: EncoderSpec): PageEncoder {
  const row = rowReader(spec.columns);
  const text = (c: Cell): string => {
    if (c === null) return '';
    if (typeof c !== 'string') return String(c);
    return escapeTsv(spec.sanitize ? neutraliseFormula(c) : c);
  };
  return (records) => {
    let page = '';
    for (const r of records) {
      const cells = row(r);
      let line = text(cells[0] ?? null);
      for (let i = 1; i < cells.length; i++) line += '\t' + text(cells[i]!);
      page += line + '\n';
    }
    return page;
  };
}

export function createTsvWriter(ctx: WriterContext): Promise<FormatWriter> {
  const spec = encoderSpec(ctx, 'tsv');
  return textWriter(ctx, spec, tsvEncoder(spec), {
    header: ctx.columns.map((c) => escapeTsv(c.name)).join('\t') + '\n',
    footer: () => '',
  });
}
