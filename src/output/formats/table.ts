/**
 * `table`: a box table for the terminal through cli-table3, fitted to the
 * terminal width. One flexible column (the title or name) takes the room the
 * fixed ones leave. Pages are rendered one at a time and stitched together
 * (compact rows, so only the first page prints the top and header, and the
 * bottom border comes at the end), which keeps the output streaming.
 * Control characters are removed from every cell: data must not be able to
 * send escape sequences to the terminal.
 */
import type { Column } from '../columns.js';
import { selectColumns } from '../columns.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { cellOf } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { RecordKind } from '../types.js';
import { terminalSafe } from '../text.js';

interface TableColumn {
  column: Column;
  header: string;
  /** Width including the two padding spaces; undefined = the flexible column. */
  width: number | undefined;
}

const MIN_FLEX = 12;
const GENERIC_WIDTH = 16;

const PRESETS: Record<Exclude<RecordKind, 'generic'>, [string, string, number | undefined][]> = {
  article: [
    // Tight fixed columns: on an 80-column terminal the title still gets a third.
    ['published_at', 'published', 18],
    ['source.domain', 'source', 16],
    ['language', 'lang', 6],
    ['title', 'title', undefined],
    ['id', 'id', 11],
  ],
  person: [
    ['name', 'name', undefined],
    ['type', 'type', 10],
    ['profile.nationality', 'nationality', 16],
    ['id', 'id', 12],
  ],
  company: [
    ['name', 'name', undefined],
    ['type', 'type', 14],
    ['profile.website_url', 'website', 30],
    ['id', 'id', 12],
  ],
  journalist: [
    ['name', 'name', 28],
    ['outlet_count', 'outlets', 9],
    ['outlets.names', 'outlet names', undefined],
    ['id', 'id', 12],
  ],
};

/** Which columns the table shows and how wide each is, for `width` terminal columns. */
export function layout(
  ctx: Pick<WriterContext, 'columns' | 'kind' | 'projected'>,
  width: number,
): TableColumn[] {
  let chosen: TableColumn[];
  if (!ctx.projected && ctx.kind !== 'generic') {
    const preset = PRESETS[ctx.kind];
    const cols = selectColumns(
      ctx.columns,
      preset.map(([name]) => name),
    );
    chosen = cols.map((column, i) => ({ column, header: preset[i]![1], width: preset[i]![2] }));
  } else {
    // Generic or --fields: as many columns as fit, the first one flexible.
    const fit = Math.max(1, Math.floor((width - 1) / (GENERIC_WIDTH + 1)));
    const cols = ctx.projected ? ctx.columns : ctx.columns.slice(0, fit);
    chosen = cols.map((column, i) => ({
      column,
      header: column.name,
      width: i === 0 ? undefined : ctx.projected ? undefined : GENERIC_WIDTH,
    }));
  }
  const borders = chosen.length + 1;
  const flexible = chosen.filter((c) => c.width === undefined);
  const fixed = chosen.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const room = Math.max(MIN_FLEX * flexible.length, width - borders - fixed);
  return chosen.map((c, i) => {
    if (c.width !== undefined) return c;
    const share =
      Math.floor(room / flexible.length) + (flexible.indexOf(c) < room % flexible.length ? 1 : 0);
    return { ...c, width: Math.max(MIN_FLEX, share), header: chosen[i]!.header };
  });
}

function display(cell: Cell, column: Column): string {
  if (cell === null) return '';
  if (column.type === 'timestamp' && typeof cell === 'string') {
    const t = Date.parse(cell);
    if (Number.isFinite(t)) return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
  }
  return terminalSafe(String(cell));
}

export async function createTableWriter(ctx: WriterContext): Promise<FormatWriter> {
  const Table = (await import('cli-table3')).default;
  const cols = layout(ctx, ctx.terminalWidth);
  const render = (rows: string[][], withHead: boolean): string[] => {
    const table = new Table({
      ...(withHead ? { head: cols.map((c) => terminalSafe(c.header)) } : {}),
      colWidths: cols.map((c) => c.width ?? MIN_FLEX),
      wordWrap: false,
      style: { head: [], border: [], compact: true },
    });
    table.push(...rows);
    return table.toString().split('\n');
  };
  let started = false;
  let bottom = '';
  return {
    async writePage(records) {
      if (records.length === 0) return;
      const rows = records.map((r) => cols.map((c) => display(cellOf(r, c.column), c.column)));
      const lines = render(rows, !started);
      bottom = lines.pop() ?? '';
      if (started) lines.shift();
      started = true;
      await ctx.sink.write(lines.join('\n') + '\n');
    },
    async finish() {
      if (!started) {
        await ctx.sink.write(render([], true).join('\n') + '\n');
        return;
      }
      await ctx.sink.write(bottom + '\n');
    },
  };
}
