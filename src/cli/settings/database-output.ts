/**
 * What a database `-o` changes in the output settings: `--table` and
 * `--write` mean something only there, and `-f` nothing at all (a database
 * is written as tables), so each is refused where it would be ignored.
 */
import { UsageError } from '../../api/errors.js';
import { resolveDestination } from '../../output/destinations/registry.js';
import { WRITE_MODES } from './global-options.js';

export type WriteMode = (typeof WRITE_MODES)[number];

/** Whether -o names a database; refuses the flags that contradict the answer. */
export function databaseOutput(flags: {
  readonly output?: string | undefined;
  readonly format?: string | undefined;
  readonly table?: string | undefined;
  readonly write?: string | undefined;
}): boolean {
  const output = flags.output;
  const destination = output === undefined ? undefined : resolveDestination(output);
  if (destination?.kind === 'database') {
    if (flags.format !== undefined) {
      throw new UsageError(
        `-f ${flags.format} does not apply to ${destination.url.redacted}: a database is written as tables`,
        { hint: 'drop -f, or write a file with -o FILE' },
      );
    }
    if (flags.write !== undefined && !(WRITE_MODES as readonly string[]).includes(flags.write)) {
      throw new UsageError(
        `--write must be one of ${WRITE_MODES.join(', ')} (got "${flags.write}")`,
      );
    }
    return true;
  }
  for (const [flag, value] of [
    ['--table', flags.table],
    ['--write', flags.write],
  ] as const) {
    if (value !== undefined) {
      throw new UsageError(`${flag} applies to a database -o only`, {
        hint: 'write -o postgres://USER@HOST/DB or -o duckdb:FILE',
      });
    }
  }
  return false;
}
