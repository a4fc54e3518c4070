/**
 * `table`: aligned columns for the terminal, sized by their content and the
 * terminal width. Borderless by default, as `gh` prints lists (two spaces
 * between columns, a header line); `box` draws lines around the cells.
 *
 * This module decides the layout; cli-table3 draws it (table-draw.ts).
 * Widths come from the first page (the table streams: later pages keep them
 * and cli-table3 cuts what no longer fits, ending the cell with `…`). Each
 * column wants its widest cell; when the total is over the width, the widest
 * text columns are cut first, down to the next widest, until the table fits
 * (ids, numbers and dates are never cut). Generic records show as many of
 * their columns as fit. Widths are measured with `textWidth` (string-width),
 * the measure cli-table3 pads and cuts with. Cells are tidied with
 * `terminalSafe` (one line, whitespace runs collapsed) before either sees them.
 */
import type { Column } from '../columns.js';
import { selectColumns } from '../columns.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { cellOf } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { ApiRecord, RecordKind } from '../types.js';
import { terminalSafe } from '../text.js';
import { type DrawColumn, type TableStyle, drawRows, frameWidth, textWidth } from './table-draw.js';

interface TableColumn extends DrawColumn {
  readonly column: Column;
  readonly header: string;
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

/** Cut to fit when the table is too wide: text, but never an id (`id`, `source.id`, `session_id`). */
function isCuttable(column: Column): boolean {
  return (column.type === 'string' || column.type === 'json') && !/(^|[._])id$/.test(column.name);
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
    chosen = ctx.columns.map((column) => ({ column, header: terminalSafe(column.name) }));
  }
  const measured = chosen.map(({ column, header }) => {
    const headerWidth = textWidth(header);
    let content = 0;
    for (const record of sample) {
      content = Math.max(content, textWidth(display(cellOf(record, column), column)));
    }
    const natural = Math.max(headerWidth, content, 1);
    const minimum = isCuttable(column)
      ? Math.min(natural, Math.max(MIN_TEXT, headerWidth))
      : natural;
    return { column, header, natural, minimum };
  });
  // Drop trailing columns until the minimums fit (generic records have many);
  // a projection or preset keeps at least its first column.
  let kept = measured;
  while (
    kept.length > 1 &&
    kept.reduce((s, c) => s + c.minimum, 0) + frameWidth(kept.length, style) > width
  ) {
    kept = kept.slice(0, -1);
  }
  const widths = fitWidths(
    kept.map((c) => c.natural),
    kept.map((c) => c.minimum),
    Math.max(1, width - frameWidth(kept.length, style)),
  );
  return kept.map((c, i) => ({
    column: c.column,
    header: c.header,
    width: widths[i]!,
    align: c.column.type === 'int' || c.column.type === 'float' ? 'right' : 'left',
  }));
}

export async function createTableWriter(ctx: WriterContext): Promise<FormatWriter> {
  const style: TableStyle = ctx.tableStyle ?? 'plain';
  let cols: TableColumn[] | undefined;
  /** `box`: cli-table3 closes each page it draws; the table streams, so the close waits for the end. */
  let close: string | undefined;
  const write = async (shown: TableColumn[], rows: string[][], first: boolean): Promise<void> => {
    const lines = drawRows(shown, rows, {
      style,
      ...(first ? { head: shown.map((c) => c.header) } : { top: false }),
    });
    if (style === 'box') close = lines.pop();
    if (lines.length > 0) await ctx.sink.write(`${lines.join('\n')}\n`);
  };
  return {
    async writePage(records) {
      if (records.length === 0) return;
      const first = cols === undefined;
      cols ??= layout(ctx, records, ctx.terminalWidth, style);
      const shown = cols;
      await write(
        shown,
        records.map((record) => shown.map((c) => display(cellOf(record, c.column), c.column))),
        first,
      );
    },
    async finish() {
      // No records: the header alone, so the reader sees what would have been listed.
      if (cols === undefined) {
        cols = layout(ctx, [], ctx.terminalWidth, style);
        await write(cols, [], true);
      }
      if (close !== undefined) await ctx.sink.write(`${close}\n`);
    },
  };
}
