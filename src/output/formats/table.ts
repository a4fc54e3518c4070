/**
 * `table`: aligned columns for the terminal, sized by their content and the
 * terminal width. Borderless by default, as `gh` prints lists (two spaces
 * between columns, a header line); `box` draws lines around the cells.
 *
 * This module decides the layout; cli-table3 draws it. Widths come from the
 * first page (the table streams: later pages keep them and cli-table3 cuts
 * what no longer fits, ending the cell with `…`). Each column wants its
 * widest cell; when the total is over the width, the widest text columns are
 * cut first, down to the next widest, until the table fits (ids, numbers and
 * dates are never cut). Generic records show as many of their columns as fit.
 * Widths are measured with string-width, the measure cli-table3 pads and cuts
 * with, so the two agree on every cell.
 * Every cell goes through `terminalSafe` before cli-table3 sees it: data must
 * not be able to send escape sequences or bidi overrides to the terminal.
 */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import type { Column } from '../columns.js';
import { selectColumns } from '../columns.js';
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
    const headerWidth = stringWidth(terminalSafe(header));
    let content = 0;
    for (const record of sample) {
      content = Math.max(content, stringWidth(display(cellOf(record, column), column)));
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

type Chars = Partial<Record<Table.CharName, string>>;

/** No lines at all; two spaces between columns. */
const BORDERLESS: Chars = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** Pages after the first continue the box: no top line. */
const NO_TOP: Chars = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '' };

// cli-table3 cuts by UTF-16 unit, so an emoji at the cut can lose its second
// half, which a terminal shows as U+FFFD. string-width counted the half as one
// column: the ellipsis moves into it and a space takes the ellipsis's place.
const HALF_BEFORE_ELLIPSIS = /[\uD800-\uDBFF]…/g;

/**
 * One page drawn by cli-table3 with the layout's widths (plus the cell
 * padding of `box`), the header when `head` is given. Returns its lines.
 */
function draw(
  cols: readonly TableColumn[],
  rows: readonly string[][],
  style: TableStyle,
  head: boolean,
): string[] {
  const padding = style === 'box' ? 1 : 0;
  const table = new Table({
    ...(head ? { head: cols.map((c) => terminalSafe(c.header)) } : {}),
    colWidths: cols.map((c) => c.width + 2 * padding),
    colAligns: cols.map((c) => c.align),
    chars: style === 'box' ? (head ? {} : NO_TOP) : BORDERLESS,
    // No colours: a table is read in pipes and logs as well as on terminals.
    style: {
      'padding-left': padding,
      'padding-right': padding,
      head: [],
      border: [],
      compact: true,
    },
  });
  table.push(...rows);
  const text = table.toString();
  const lines = (text.isWellFormed() ? text : text.replace(HALF_BEFORE_ELLIPSIS, '… ')).split('\n');
  return style === 'box' ? lines : lines.map((l) => l.trimEnd());
}

export async function createTableWriter(ctx: WriterContext): Promise<FormatWriter> {
  const style: TableStyle = ctx.tableStyle ?? 'plain';
  let cols: TableColumn[] | undefined;
  /** `box`: cli-table3 closes each page it draws; the table streams, so the close is held back until the end. */
  let close: string | undefined;
  const write = async (rows: string[][], head: boolean): Promise<void> => {
    const lines = draw(cols!, rows, style, head);
    if (style === 'box') close = lines.pop();
    if (lines.length > 0) await ctx.sink.write(`${lines.join('\n')}\n`);
  };
  return {
    async writePage(records) {
      if (records.length === 0) return;
      const head = cols === undefined;
      cols ??= layout(ctx, records, ctx.terminalWidth, style);
      const shown = cols;
      await write(
        records.map((record) => shown.map((c) => display(cellOf(record, c.column), c.column))),
        head,
      );
    },
    async finish() {
      // No records: the header alone, so the reader sees what would have been listed.
      if (cols === undefined) {
        cols = layout(ctx, [], ctx.terminalWidth, style);
        await write([], true);
      }
      if (close !== undefined) await ctx.sink.write(`${close}\n`);
    },
  };
}
