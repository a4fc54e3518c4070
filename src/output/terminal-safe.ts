/**
 * The one sanitiser for third-party text (server messages, codes, request ids,
 * record fields) on its way to a terminal: stderr lines, tables and views.
 * Dependency-free: it is on the start-up path.
 *
 * What it removes, and why:
 * - whole escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, the
 *   C1 forms and two-character ESC sequences): `\e[2J` clears the screen,
 *   OSC 0 rewrites the window title, OSC 52 writes the clipboard, OSC 8 hides
 *   a link behind text;
 * - every other C0 and C1 control (BEL, backspace, carriage return, line
 *   feeds): a CR or a newline in a message would forge a second `error:` line;
 * - bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
 *   invisible direction marks (U+200E, U+200F, U+061C): they reorder what is
 *   shown ("Trojan Source"), so the text read is not the text printed;
 * - U+2028/U+2029 (line and paragraph separators), which some terminals break on;
 * - lone surrogates, which would print as garbage (made U+FFFD).
 */

// CSI: ESC [ or the C1 byte U+009B, parameters, intermediates, one final byte.
// OSC/DCS/SOS/PM/APC: ESC ] P X ^ _ (or C1 U+009D U+0090 U+0098 U+009E U+009F)
// up to BEL or ST (ESC \ or U+009C), or to the end of the text when unterminated.
// Other ESC sequences: ESC, intermediates, one final byte.
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
// Cheap pre-check: most text has none of these, and then nothing is allocated.
const ANY_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff]/;

/**
 * Removes escape sequences and bidi controls and turns every other control
 * character into a space, keeping the text's spacing otherwise (a query shown
 * with a caret under it keeps its columns). The result is one line.
 */
export function stripUnsafe(s: string): string {
  if (!ANY_UNSAFE.test(s)) return s;
  const out = s.replace(ESCAPE_SEQUENCE, '').replace(BIDI, '').replace(CONTROL, ' ');
  return out.isWellFormed() ? out : out.toWellFormed();
}

/** One line of plain text, safe to print on a terminal: `stripUnsafe`, runs of space collapsed, trimmed. */
export function terminalSafe(s: string): string {
  return stripUnsafe(s).replace(/\s+/g, ' ').trim();
}

/** True when `s` holds nothing `stripUnsafe` would change (tests and the fuzz suite use it). */
export function isTerminalSafe(s: string): boolean {
  return !ANY_UNSAFE.test(s) || stripUnsafe(s) === s;
}
