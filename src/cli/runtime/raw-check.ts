import { UsageError } from '../../api/errors.js';
import type { Settings } from '../settings/settings.js';

/**
 * `--raw` prints the service's response bodies untouched, on stdout. Options
 * that shape records cannot apply to an untouched body, so they are refused
 * rather than silently ignored. `--all` is supported (one body per line).
 */
export function refuseWithRaw(
  settings: Pick<Settings, 'format' | 'output' | 'fields'>,
  limit: number | undefined,
): void {
  const clash =
    limit !== undefined
      ? '--limit'
      : settings.fields !== undefined
        ? '--fields'
        : settings.output !== undefined && settings.output !== '-'
          ? '-o'
          : settings.format !== undefined && settings.format !== 'json'
            ? `-f ${settings.format}`
            : undefined;
  if (clash === undefined) return;
  throw new UsageError(`--raw prints the response bodies untouched; it cannot apply ${clash}`, {
    hint:
      clash === '--limit'
        ? 'with --raw use --per-page N (one page) or --all (every page, one body per line)'
        : 'drop --raw to shape the records, or redirect --raw output yourself (> file.json)',
  });
}
