/**
 * `-o` templates for runs that repeat: `{date}` and `{time}` of the run's
 * start, `{from}` and `{to}` of the request's published_at range, all UTC and
 * safe in file names on every platform (no colons).
 */
import { UsageError } from '../../api/errors.js';

export const TEMPLATE_NAMES = ['date', 'time', 'from', 'to'] as const;

export interface TemplateContext {
  readonly now: Date;
  /** The request's `published_at.start` / `published_at.end`, as given. */
  readonly from: unknown;
  readonly to: unknown;
}

/** `2026-11-20T15:04:05Z` → `2026-11-20T150405Z`; a date stays a date. */
function fileSafeInstant(value: string): string {
  const ms = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms)) return value.replace(/[:/\\]/g, '');
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '');
}

export function hasTemplate(path: string): boolean {
  return /\{[a-z]+\}/.test(path);
}

export function expandTemplate(path: string, ctx: TemplateContext): string {
  const iso = ctx.now.toISOString();
  const values: Record<string, string> = {
    date: iso.slice(0, 10),
    time: iso.slice(11, 19).replace(/:/g, ''),
    from: typeof ctx.from === 'string' ? fileSafeInstant(ctx.from) : 'start',
    to: typeof ctx.to === 'string' ? fileSafeInstant(ctx.to) : fileSafeInstant(iso),
  };
  return path.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new UsageError(`-o: unknown template field ${whole}`, {
        hint: `the fields are ${TEMPLATE_NAMES.map((n) => `{${n}}`).join(' ')}`,
      });
    }
    return value;
  });
}
