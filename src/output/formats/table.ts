/**
 * `table`: aligned columns for the terminal, sized by their content and the
 * terminal width. Borderless by default, as `gh` prints lists (two spaces
 * between columns, a header line); `box` draws lines around the cells.
 *
 * Widths come from the first page (the table streams: later pages keep them
 * and cut what no longer fits). Each column wants its widest cell; when the
 * total is over the width, the widest text columns are cut first, down to the
 * next widest, until the table fits (ids, numbers and dates are never cut).
 * Generic records show as many of their columns as fit.
 * Every cell goes through `terminalSafe`: data must not be able to send
 * escape sequences or bidi overrides to the terminal.
 */
import type { Column } from '../columns.js';
import { selectColumns } from '../columns.js';
import { displayWidth, padWidth } from '../display-width.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { cellOf } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { ApiRecord, RecordKind } from '../types.js';
import { terminalSafe } from '../text.js';

export type TableStyle = 'plain' | 'box';

interface TableColumn {
  column: Column;
  header: string;
  /** Content width, without padding or borders. */
  width: number;
  align: 'left' | 'right';
}

/** A text column is not cut below this (or its header, if shorter content). */
const MIN_TEXT = 8;

const PRESETS: Record<Exclude<RecordKind, 'generic'>, [string, string][]> = {
  article: [
    ['published_at', 'published'],
    ['source.domain', 'source'],
    ['language', 'lang'],
    ['title', 'title'],
    ['id', 'id'],
  ],
  person: [
    ['name', 'name'],
    ['type', 'type'],
    ['profile.nationality', 'nationality'],
    ['id', 'id'],
  ],
  company: [
    ['name', 'name'],
    ['type', 'type'],
    ['profile.website_url', 'website'],
    ['id', 'id'],
  ],
  journalist: [
    ['name', 'name'],
    ['outlet_count', 'outlets'],
    ['outlets.names', 'outlet names'],
    ['id', 'id'],
  ],
};

function display(cell: Cell, column: Column): string {
  if (cell === null) return '';
  if (column.type === 'timestamp' && typeof cell === 'string') {
    const t = Date.parse(cell);
    if (Number.isFinite(t)) return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
  }
  return terminalSafe(String(cell));
}

/** Room taken by everything but the cells: gaps, or borders and padding. */
function overhead(columns: number, style: TableStyle): number {
  return style === 'box' ? 3 * columns + 1 : 2 * Math.max(0, columns - 1);
}

function isText(column: Column): boolean {
  return column.type === 'string' || column.type === 'json';
}

/**
 * Widths for `chosen` within `width` terminal columns: natural widths when
 * they fit, else the widest text columns cut first (water-filling), none of
 * them below its minimum. May still be wider than `width` when the minimums
 * are; the caller drops columns then.
 */
export function fitWidths(
  natural: readonly number[],
  minimum: readonly number[],
  available: number,
): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return [...natural];
  // The largest cap C such that sum(min(natural, max(C, minimum))) <= available.
  const widthFor = (cap: number) =>
    natural.reduce((sum, n, i) => sum + Math.min(n, Math.max(cap, minimum[i]!)), 0);
  let low = 0;
  let high = Math.max(...natural);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (widthFor(mid) <= available) low = mid;
    else high = mid - 1;
  }
  const widths = natural.map((n, i) => Math.min(n, Math.max(low, minimum[i]!)));
  // Hand the rounding remainder to the cut columns, widest first.
  let spare = available - widths.reduce((a, b) => a + b, 0);
  const order = widths
    .map((_w, i) => i)
    .filter((i) => widths[i]! < natural[i]!)
    .sort((a, b) => natural[b]! - natural[a]!);
  for (const i of order) {
    if (spare <= 0) break;
    const add = Math.min(spare, natural[i]! - widths[i]!);
    widths[i]! += add;
    spare -= add;
  }
  return widths;
}

/** Which columns the table shows and how wide each is, from a sample of records. */
export function layout(
  ctx: Pick<WriterContext, 'columns' | 'kind' | 'projected'>,
  sample: readonly ApiRecord[],
  width: number,
  style: TableStyle = 'plain',
): TableColumn[] {
  let chosen: { column: Column; header: string }[];
  if (!ctx.projected && ctx.kind !== 'generic') {
    const preset = PRESETS[ctx.kind];
    const cols = selectColumns(
      ctx.columns,
      preset.map(([name]) => name),
    );
    chosen = cols.map((column, i) => ({ column, header: preset[i]![1] }));
  } else {
    chosen = ctx.columns.map((column) => ({ column, header: column.name }));
  }
  const measured = chosen.map(({ column, header }) => {
    const headerWidth = displayWidth(terminalSafe(header));
    let content = 0;
    for (const record of sample) {
      content = Math.max(content, displayWidth(display(cellOf(record, column), column)));
    }
    const natural = Math.max(headerWidth, content, 1);
    const minimum = isText(column) ? Math.min(natural, Math.max(MIN_TEXT, headerWidth)) : natural;
    return { column, header, natural, minimum };
  });
  // Drop trailing columns until the minimums fit (generic records have many);
  // a projection or preset keeps at least its first column.
  let kept = measured;
  while (
    kept.length > 1 &&
    kept.reduce((s, c) => s + c.minimum, 0) + overhead(kept.length, style) > width
  ) {
    kept = kept.slice(0, -1);
  }
  const widths = fitWidths(
    kept.map((c) => c.natural),
    kept.map((c) => c.minimum),
    Math.max(1, width - overhead(kept.length, style)),
  );
  return kept.map((c, i) => ({
    column: c.column,
    header: c.header,
    width: widths[i]!,
    align: c.column.type === 'int' || c.column.type === 'float' ? 'right' : 'left',
  }));
}

function renderRow(cells: readonly string[], cols: readonly TableColumn[], style: TableStyle) {
  const padded = cells.map((text, i) => padWidth(text, cols[i]!.width, cols[i]!.align));
  return style === 'box' ? `│ ${padded.join(' │ ')} │` : padded.join('  ').trimEnd();
}

function rule(cols: readonly TableColumn[], left: string, mid: string, right: string): string {
  return `${left}${cols.map((c) => '─'.repeat(c.width + 2)).join(mid)}${right}`;
}

export async function createTableWriter(ctx: WriterContext): Promise<FormatWriter> {
  const style: TableStyle = ctx.tableStyle ?? 'plain';
  let cols: TableColumn[] | undefined;
  const head = (columns: TableColumn[]): string[] => {
    const header = renderRow(
      columns.map((c) => terminalSafe(c.header)),
      columns,
      style,
    );
    return style === 'box'
      ? [rule(columns, '┌', '┬', '┐'), header, rule(columns, '├', '┼', '┤')]
      : [header];
  };
  return {
    async writePage(records) {
      if (records.length === 0) return;
      const lines: string[] = [];
      if (cols === undefined) {
        cols = layout(ctx, records, ctx.terminalWidth, style);
        lines.push(...head(cols));
      }
      const shown = cols;
      for (const record of records) {
        lines.push(
          renderRow(
            shown.map((c) => display(cellOf(record, c.column), c.column)),
            shown,
            style,
          ),
        );
      }
      await ctx.sink.write(`${lines.join('\n')}\n`);
    },
    async finish() {
      if (cols === undefined) {
        // No records: the header alone, so the reader sees what would have been listed.
        cols = layout(ctx, [], ctx.terminalWidth, style);
        const lines = head(cols);
        if (style === 'box') lines.push(rule(cols, '└', '┴', '┘'));
        await ctx.sink.write(`${lines.join('\n')}\n`);
        return;
      }
      if (style === 'box') await ctx.sink.write(`${rule(cols, '└', '┴', '┘')}\n`);
    },
  };
}
