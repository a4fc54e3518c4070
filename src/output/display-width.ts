/**
 * Terminal column widths of text, for tables that line up with CJK and emoji.
 * A small table of the wide and zero-width ranges (East Asian Wide/Fullwidth,
 * emoji, combining marks) instead of a dependency: close enough for news
 * titles, and on the table's path only.
 */

function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x0483 && cp <= 0x0489) ||
    (cp >= 0x0591 && cp <= 0x05bd) ||
    (cp >= 0x0610 && cp <= 0x061a) ||
    (cp >= 0x064b && cp <= 0x065f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

function charWidth(cp: number): number {
  if (isZeroWidth(cp)) return 0;
  return isWide(cp) ? 2 : 1;
}

/** Columns `s` takes on a terminal. */
export function displayWidth(s: string): number {
  let width = 0;
  let joined = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    // A zero-width joiner glues the next character into one glyph (👩‍👩‍👧).
    if (!joined) width += charWidth(cp);
    joined = cp === 0x200d;
  }
  return width;
}

/** Cuts `s` to at most `width` columns, ending with "…" when cut; never splits a character. */
export function fitWidth(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  let joined = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const w = joined ? 0 : charWidth(cp);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
    joined = cp === 0x200d;
  }
  return `${out}…`;
}

/** `s` fitted and padded to exactly `width` columns. */
export function padWidth(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fitted = fitWidth(s, width);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(fitted)));
  return align === 'left' ? fitted + pad : pad + fitted;
}
