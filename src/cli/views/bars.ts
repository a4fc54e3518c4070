/**
 * Text bars and sparklines for the terminal views. Pure functions of (data,
 * width) with no colour, so the same string reads in a pipe, a log or a test.
 */

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** A horizontal bar of `value / max` of `width` cells, with eighth-cell precision. */
export function bar(value: number, max: number, width: number): string {
  if (!(max > 0) || !(value > 0) || width <= 0) return '';
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

/** One character per value, scaled between 0 and the largest value. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) => {
      if (!(max > 0) || !(v > 0)) return ' ';
      const level = Math.ceil((v / max) * SPARKS.length) - 1;
      return SPARKS[Math.min(SPARKS.length - 1, Math.max(0, level))]!;
    })
    .join('');
}

export interface Share {
  readonly value: number;
  /** The character that fills this share of the bar. */
  readonly fill: string;
}

/**
 * A bar of exactly `width` cells split between shares (sentiment: positive,
 * neutral, negative). Largest-remainder rounding keeps the total exact and
 * gives every non-zero share at least one cell when there is room.
 */
export function splitBar(shares: readonly Share[], width: number): string {
  const total = shares.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  if (!(total > 0) || width <= 0) return '';
  const exact = shares.map((s) => (Math.max(0, s.value) / total) * width);
  const visible = shares.filter((s) => s.value > 0).length <= width;
  const cells = exact.map((e) => (visible && e > 0 ? Math.max(1, Math.floor(e)) : Math.floor(e)));
  const order = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((a, b) => b.rest - a.rest);
  let sum = cells.reduce((a, b) => a + b, 0);
  for (const { i } of order) {
    if (sum >= width) break;
    cells[i] = (cells[i] ?? 0) + 1;
    sum += 1;
  }
  // Minimum cells can overshoot: take the excess from the largest shares.
  while (sum > width) {
    const largest = cells.indexOf(Math.max(...cells));
    cells[largest] = (cells[largest] ?? 0) - 1;
    sum -= 1;
  }
  return shares.map((s, i) => s.fill.repeat(cells[i] ?? 0)).join('');
}

/** A signed percentage: `+12%`, `-3.5%`, `0%`. */
export function formatChange(pct: number): string {
  const rounded = Math.abs(pct) >= 10 ? Math.round(pct) : Math.round(pct * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded}%`;
}
