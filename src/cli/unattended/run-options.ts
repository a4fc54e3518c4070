/**
 * The flags of unattended runs, declared once and added to every
 * search-like command's `options`. Parsed into `CronOptions` by `cronFrom`.
 */
import { UsageError } from '../../api/errors.js';
import { storeOf } from '../../output/destinations/registry.js';
import type { OptionSpec } from '../command-spec.js';

export const PARTITION_KEYS = ['day', 'month', 'language.code', 'source.country.code'] as const;
export type PartitionKey = (typeof PARTITION_KEYS)[number];

export const CRON_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '--state <file>',
    description:
      'incremental run: write only articles not written by earlier runs with this state file (implies --all)',
  },
  { flags: '--state-reset', description: 'start the --state file afresh when the query changed' },
  { flags: '--skip-empty', description: 'with --state: write no file when nothing is new' },
  {
    flags: '--resume',
    description: 'continue an interrupted --all -o FILE export from its checkpoint',
  },
  {
    flags: '--partition-by <key>',
    choices: PARTITION_KEYS,
    description: `write -o DIR as a hive-style data set: ${PARTITION_KEYS.join('|')}`,
  },
  {
    flags: '--max-points <n>',
    description: 'refuse to start (exit 4) or stop cleanly before spending more than N points',
  },
  {
    flags: '--split-window <span>',
    description:
      'fetch a long published_at range in windows of this span (7d, 12h; title searches: at most 31d)',
  },
  { flags: '--log-file <file>', description: 'append one JSON line per run (cron logs)' },
];

export interface CronOptions {
  readonly state: string | undefined;
  readonly stateReset: boolean;
  readonly skipEmpty: boolean;
  readonly resume: boolean;
  readonly partitionBy: PartitionKey | undefined;
  readonly maxPoints: number | undefined;
  readonly splitWindowMs: number | undefined;
  readonly logFile: string | undefined;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** `7d`, `12h`, `30m`, `2w` → milliseconds. */
export function parseSpan(text: string): number {
  const match = /^\s*(\d+)\s*([mhdw])\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]! : Number.NaN;
  if (!(ms > 0)) {
    throw new UsageError(`--split-window must be a span such as 7d, 12h or 2w (got "${text}")`);
  }
  return ms;
}

export function cronFrom(options: Readonly<Record<string, unknown>>): CronOptions {
  const text = (name: string): string | undefined => {
    const value = options[name];
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
  const partition = text('partitionBy');
  if (partition !== undefined && !(PARTITION_KEYS as readonly string[]).includes(partition)) {
    throw new UsageError(
      `--partition-by must be one of ${PARTITION_KEYS.join(', ')} (got "${partition}")`,
    );
  }
  const max = text('maxPoints');
  let maxPoints: number | undefined;
  if (max !== undefined) {
    maxPoints = Number(max);
    if (!Number.isInteger(maxPoints) || maxPoints < 0) {
      throw new UsageError(`--max-points must be a whole number of at least 0 (got "${max}")`);
    }
  }
  const split = text('splitWindow');
  const state = text('state');
  if (state !== undefined) storeOf(state).checkStateName(state);
  return {
    state,
    stateReset: options['stateReset'] === true,
    skipEmpty: options['skipEmpty'] === true,
    resume: options['resume'] === true,
    partitionBy: partition as PartitionKey | undefined,
    maxPoints,
    splitWindowMs: split === undefined ? undefined : parseSpan(split),
    logFile: text('logFile'),
  };
}

/** Whether any flag of this group was given (else the list runs as it always did). */
export function cronActive(cron: CronOptions): boolean {
  return (
    cron.state !== undefined ||
    cron.resume ||
    cron.partitionBy !== undefined ||
    cron.maxPoints !== undefined ||
    cron.splitWindowMs !== undefined ||
    cron.logFile !== undefined
  );
}

/**
 * Whether a long title search will be fetched in windows (so ER0110 does not
 * apply to the whole range): the run pages (--all, --limit, --state) or
 * --split-window was given.
 */
export function splitsTitleWindow(options: Readonly<Record<string, unknown>>): boolean {
  return (
    options['all'] === true ||
    options['limit'] !== undefined ||
    options['state'] !== undefined ||
    options['splitWindow'] !== undefined
  );
}
