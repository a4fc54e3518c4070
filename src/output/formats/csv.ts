/**
 * CSV per RFC 4180 through papaparse: CRLF line ends, a field quoted only when
 * it holds a comma, quote, CR or LF (or edge spaces), inner quotes doubled.
 * `unparse` runs once per page and the text goes straight to the sink, never
 * one string for the whole export (V8 caps strings at ~512 MiB).
 */
import { encoderSpec } from '../format-writer.js';
import type { EncoderSpec, FormatWriter, WriterContext } from '../format-writer.js';
import { rowReader } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { PageEncoder } from '../text-writer.js';
import { textWriter } from '../text-writer.js';
import { neutraliseFormula } from '../text.js';

// Explicit: papaparse's own formula escaping differs from ours (it also
// quotes, and it escapes plain negative numbers such as "-0.42").
const CONFIG = {
  newline: '\r\n',
  quotes: false,
  quoteChar: '"',
  delimiter: ',',
  header: false,
  escapeFormulae: false,
} as const;

async function unparser(): Promise<(rows: Cell[][]) => string> {
  const Papa = (await import('papaparse')).default;
  return (rows) => Papa.unparse(rows, CONFIG) + '\r\n';
}

export async function csvEncoder(spec: EncoderSpec): Promise<PageEncoder> {
  const unparse = await unparser();
  const guard = spec.sanitize
    ? (c: Cell): Cell => (typeof c === 'string' ? neutraliseFormula(c) : c)
    : (c: Cell): Cell => c;
  const row = rowReader(spec.columns);
  // An empty-string cell would be unparsed as nothing either way; null and
  // empty are both an empty field in CSV.
  return (records) => {
    const rows = new Array<Cell[]>(records.length);
    for (let i = 0; i < records.length; i++) {
      const cells = row(records[i]!);
      for (let j = 0; j < cells.length; j++) cells[j] = guard(cells[j]!);
      rows[i] = cells;
    }
    return unparse(rows);
  };
}

export async function createCsvWriter(ctx: WriterContext): Promise<FormatWriter> {
  const header = (await unparser())([ctx.columns.map((c) => c.name)]);
  const spec = encoderSpec(ctx, 'csv');
  return textWriter(ctx, spec, await csvEncoder(spec), {
    header,
    footer: () => '',
  });
}
