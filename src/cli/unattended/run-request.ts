import type { RequestSpec } from '../../api/types.js';
import type { RecordKind } from '../../output/types.js';
import type { Runtime } from '../runtime/runtime.js';
import type { CronOptions } from './run-options.js';

export type Body = Record<string, unknown>;

/** One unattended list run, as list-runner hands it over. */
export interface CronListRequest {
  readonly runtime: Runtime;
  readonly spec: RequestSpec;
  readonly kind: RecordKind;
  /** list-runner's Paging (not imported: list-runner loads this module). */
  readonly paging: {
    readonly all: boolean;
    readonly limit: number | undefined;
    readonly placement: 'body' | 'query';
    readonly cron: CronOptions;
  };
  /** per_page to send (the user's, or what --limit implies); undefined: the server's default. */
  readonly perPage: number | undefined;
  readonly startPage: number;
}

export function bodyOf(spec: RequestSpec): Body {
  return { ...((spec.body as Body | undefined) ?? {}) };
}
