/**
 * CSV per RFC 4180: CRLF line ends, a field quoted only when it holds a comma,
 * a quote, CR, LF or a byte-order mark, or starts or ends with a space; inner
 * quotes doubled. These are papaparse's `unparse` rules, byte for byte (a
 * test compares the two on generated cells); written here because its
 * per-cell checks were a third of a convert worker's time (docs/OUTPUT.md,
 * "CSV"). Pages are encoded one at a time and go straight to the sink, never
 * one string for the whole export (V8 caps strings at ~512 MiB).
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { rowReader } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
import { neutraliseFormula } from '../text.js';

const NEEDS_QUOTES = /[",\r\n\ufeff]/;
const SPACE = 0x20;

/** One field: quoted when it must be, inner quotes doubled. */
export function csvField(s: string): string {
  if (!NEEDS_QUOTES.test(s) && s.charCodeAt(0) !== SPACE && s.charCodeAt(s.length - 1) !== SPACE) {
    return s;
  }
  return `"${s.includes('"') ? s.replaceAll('"', '""') : s}"`;
}

/** One row and its CRLF: null is an empty field, numbers and booleans as JavaScript writes them. */
export function csvLine(cells: readonly Cell[], guard: (s: string) => string): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i]!;
    const text = c === null ? '' : typeof c === 'string' ? csvField(guard(c)) : String(c);
    line += i === 0 ? text : `,${text}`;
  }
  return `${line}\r\n`;
}

const asIs = (s: string): string => s;

export function csvEncoder(spec: EncoderSpec): PageEncoder {
  const guard = spec.sanitize ? neutraliseFormula : asIs;
  const row = rowReader(spec.columns);
  return (records) => {
    let page = '';
    for (let i = 0; i < records.length; i++) page += csvLine(row(records[i]!), guard);
    return page;
  };
}

export function createCsvWriter(ctx: WriterContext): Promise<FormatWriter> {
  const spec = encoderSpec(ctx, 'csv');
  return textWriter(ctx, spec, csvEncoder(spec), {
    header: csvLine(
      ctx.columns.map((c) => c.name),
      asIs,
    ),
    footer: () => '',
  });
}
