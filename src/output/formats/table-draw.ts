/**
 * Rows of text drawn by cli-table3 at widths the caller chose: the one drawer
 * of every aligned table the CLI prints (`-f table`, the views' ranked lists
 * and trend rows, `webhooks list`). The caller decides the widths, measuring
 * with `textWidth` (string-width); cli-table3 pads, cuts with `…` and
 * measures with the same string-width, so the two agree on every cell.
 *
 * Every cell goes through the terminal sanitiser here, before cli-table3
 * measures it: data can send no escape sequence or bidi override to the
 * terminal, and a sequence is never counted as width. `stripUnsafe` keeps
 * the spacing of safe text (a sparkline's blanks); callers tidy data with
 * `terminalSafe` (whitespace runs collapsed), as `fitText` does.
 */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { stripUnsafe } from '../terminal-safe.js';
import { terminalSafe } from '../text.js';

/** `plain`: no lines, two spaces between columns (as `gh` lists things); `box`: lines around the cells. */
export type TableStyle = 'plain' | 'box';

export interface DrawColumn {
  /** Content width in terminal columns, without padding or borders. */
  readonly width: number;
  readonly align: 'left' | 'right';
}

export interface DrawOptions {
  readonly style?: TableStyle | undefined;
  /** A header row (`box` rules it off from the rows). */
  readonly head?: readonly string[] | undefined;
  /** `box`: false continues a table drawn before (no top line). */
  readonly top?: boolean | undefined;
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

const NO_TOP: Chars = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '' };

// cli-table3 cuts by UTF-16 unit, so an emoji at the cut can lose its second
// half, which a terminal shows as U+FFFD. string-width counted the half as one
// column: the ellipsis moves into it and a space takes the ellipsis's place.
// (Cells arrive well formed, so a lone half can come from the cut only.)
const HALF_BEFORE_ELLIPSIS = /[\uD800-\uDBFF]…/g;

/** Terminal columns `text` takes in a table cell. */
export function textWidth(text: string): number {
  return stringWidth(stripUnsafe(text));
}

/** Columns a table takes beyond its cells' widths: the gaps, or the borders and padding. */
export function frameWidth(columns: number, style: TableStyle = 'plain'): number {
  return style === 'box' ? 3 * columns + 1 : 2 * Math.max(0, columns - 1);
}

/**
 * The lines of `rows` (and the header) at the columns' widths. Cells wider
 * than their column are cut, ending with `…`; `plain` lines carry no
 * trailing spaces; `box` ends with its bottom line.
 */
export function drawRows(
  columns: readonly DrawColumn[],
  rows: readonly (readonly string[])[],
  { style = 'plain', head, top = true }: DrawOptions = {},
): string[] {
  const padding = style === 'box' ? 1 : 0;
  const table = new Table({
    ...(head === undefined ? {} : { head: head.map(stripUnsafe) }),
    colWidths: columns.map((c) => c.width + 2 * padding),
    colAligns: columns.map((c) => c.align),
    chars: style === 'plain' ? BORDERLESS : top ? {} : NO_TOP,
    // compact: one rule under the header, none between rows. No colours: a
    // table is read in pipes and logs as well as on terminals.
    style: {
      'padding-left': padding,
      'padding-right': padding,
      head: [],
      border: [],
      compact: true,
    },
  });
  table.push(...rows.map((row) => row.map(stripUnsafe)));
  const text = table.toString();
  if (text === '') return [];
  const whole = text.isWellFormed()
    ? text
    : text.replace(HALF_BEFORE_ELLIPSIS, '… ').toWellFormed();
  const lines = whole.split('\n');
  return style === 'plain' ? lines.map((l) => l.trimEnd()) : lines;
}

/** `text` tidied (`terminalSafe`) on one line of at most `width` columns, cut as a table cell is. */
export function fitText(text: string, width: number): string {
  if (width <= 0) return '';
  return drawRows([{ width, align: 'left' }], [[terminalSafe(text)]])[0] ?? '';
}
