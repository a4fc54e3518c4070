/**
 * Relative dates, the rule declared once: `-24h`, `-7d`, `-30m`, `-2w`,
 * `today`, `yesterday`, `now`, wherever a date parameter is (flags,
 * `--param`, any command's date filters). The client resolves them to the
 * absolute form the service takes, once, at the start of the run, in UTC:
 * `today` and `yesterday` to a day (`2026-05-01`, so an end date covers the
 * whole day), the others to a date-time without milliseconds
 * (`2026-05-01T09:30:00Z`). The service never sees the relative form, so
 * the mock's lenient parsing (values.ts) does not know it either.
 *
 * Not in the query language: a `query` is text the service parses, so a
 * relative date there would mean something else to it (docs/QUERY-LANGUAGE.md).
 */

const OFFSET = /^-(\d{1,6})([mhdw])$/;
const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const DAY_MS = 86_400_000;

/** The forms, for help and error hints. */
export const RELATIVE_DATE_FORMS = '-30m, -24h, -7d, -2w, today, yesterday, now';

/** `2026-05-01T09:30:00Z`: ISO 8601 without milliseconds, the form the parameter table documents. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether `text` is a relative date (resolved or not, it is one of the forms above). */
export function isRelativeDate(text: string): boolean {
  return resolveRelativeDate(text, new Date(0)) !== undefined;
}

/** The absolute date `text` stands for at `now`, or undefined when it is not a relative date. */
export function resolveRelativeDate(text: string, now: Date): string | undefined {
  const word = text.trim().toLowerCase();
  const at = now.getTime();
  if (word === 'now') return isoSeconds(at);
  if (word === 'today') return day(at);
  if (word === 'yesterday') return day(at - DAY_MS);
  const offset = OFFSET.exec(word);
  if (offset === null) return undefined;
  return isoSeconds(at - Number(offset[1]) * UNIT_MS[offset[2]!]!);
}
