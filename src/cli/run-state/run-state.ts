/**
 * The state of incremental runs (`--state FILE`): which query it belongs to
 * (a fingerprint) and a watermark in the service's indexing order (the
 * largest article id written so far). A stream command can reuse it as is:
 * `loadRunState` before the first request, `commitRunState` once the output
 * is durably complete. FILE may be an `s3://` URL (storage.ts).
 */
import { createHash } from 'node:crypto';
import { NewsError, UsageError } from '../../api/errors.js';
import type { RequestSpec } from '../../api/types.js';
import { RELATIVE_DATES, type RequestBody } from '../../params/types.js';
import { unusableState, verifyLockOn } from './state-lock.js';
import { readText, removeFile, writeText } from './storage.js';

export const STATE_VERSION = 1;

/** Parameters that shape paging, not what matches: they may change between runs. */
const NOT_FINGERPRINTED = new Set(['page', 'per_page', 'sort.by', 'sort.order']);

export interface RunState {
  readonly version: typeof STATE_VERSION;
  /** `sha256:` of the query without paging and sorting. */
  readonly fingerprint: string;
  /** The query in words, so a person reading the file sees what it is for. */
  readonly query: { readonly path: string; readonly params: Readonly<Record<string, unknown>> };
  /** Every article with an id at or below this has been written. */
  readonly watermark: { readonly by: 'id'; readonly value: number } | null;
  readonly runs: number;
  /** Articles written over all runs. */
  readonly records: number;
  readonly updated_at: string;
  /** A run's files on their way into the output (commit.ts); absent between runs. */
  readonly pending?: PendingCommit;
  /** A database run in progress: how far its committed batches reach (database-run.ts). */
  readonly progress?: RunProgress;
}

/**
 * Where a run into a database stood at its last committed batch: pages are
 * in id order, newest first, pinned to `newest`; every article from
 * `newest` down to `lowest` is in the table, the rest from `next_page` on.
 */
export interface RunProgress {
  readonly newest: number;
  readonly lowest: number;
  readonly window: number;
  readonly next_page: number;
  readonly per_page: number | null;
  readonly records: number;
}

/**
 * The commit of a run in progress (commit.ts). `writing`: the run is staging
 * its files under `staging` and has not recorded them; `publishing`: every
 * file is staged, the watermark above already counts them, and `files` (paths
 * relative to `root`) are being moved to their final names.
 */
export interface PendingCommit {
  readonly stage: 'writing' | 'publishing';
  readonly run: string;
  /** The folder (or `s3://` prefix) the files are published into. */
  readonly root: string;
  /** Where they are staged: `ROOT/_staging/RUN`. */
  readonly staging: string;
  readonly files: readonly string[];
  /** The process staging them: its files are not removed while it runs (commit.ts). */
  readonly owner?: { readonly pid: number; readonly host: string };
}

/**
 * The query's own parameters (body for POST, query string for GET), minus
 * paging and sorting. A relative date stays as it was given (`-24h`, not the
 * instant it stood for this time): the same cron line is the same query.
 */
export function queryParams(spec: RequestSpec): Record<string, unknown> {
  const source = (
    spec.body !== undefined && typeof spec.body === 'object' && spec.body !== null
      ? spec.body
      : (spec.query ?? {})
  ) as Record<string, unknown> & Pick<RequestBody, typeof RELATIVE_DATES>;
  const relative = source[RELATIVE_DATES] ?? {};
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(source).sort()) {
    if (NOT_FINGERPRINTED.has(name) || source[name] === undefined) continue;
    out[name] = relative[name] ?? source[name];
  }
  return out;
}

export function fingerprintOf(spec: RequestSpec): string {
  const canonical = JSON.stringify({ path: spec.path, params: queryParams(spec) });
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

function isRunState(value: unknown): value is RunState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const mark = v['watermark'] as Record<string, unknown> | null | undefined;
  return (
    v['version'] === STATE_VERSION &&
    typeof v['fingerprint'] === 'string' &&
    (mark === null || (typeof mark === 'object' && typeof mark?.['value'] === 'number'))
  );
}

/** The state in FILE, or undefined when there is none yet. A file that is not a state is an error. */
export async function loadRunState(file: string): Promise<RunState | undefined> {
  let text: string | undefined;
  try {
    text = await readText(file);
  } catch (error) {
    if (error instanceof NewsError) throw error;
    throw unusableState(file, error);
  }
  if (text === undefined) return undefined;
  return parseRunState(text, file);
}

/** A state's text (a file's, a database row's); `where` names it in the error when it is no state. */
export function parseRunState(text: string, where: string): RunState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRunState(parsed)) {
    throw new NewsError(`${where} is not a state of this tool (version ${STATE_VERSION})`, {
      hint: 'point --state at another one, or remove it to start afresh',
    });
  }
  return parsed;
}

/**
 * The state this run starts from: undefined (first run or --state-reset) or
 * the old one. A state made for another query is a usage error: its watermark
 * would silently skip articles the new query has never written.
 */
export function startingState(
  file: string,
  previous: RunState | undefined,
  fingerprint: string,
  reset: boolean,
): RunState | undefined {
  if (previous === undefined || reset) return undefined;
  if (previous.fingerprint !== fingerprint) {
    const { params, path } = previous.query;
    const made = Object.keys(params).length === 0 ? 'no filters' : JSON.stringify(params);
    throw new UsageError(`the query differs from the one ${file} was made for`, {
      hint: `${made} on ${path}; use --state-reset to start afresh, or another --state file`,
    });
  }
  return previous;
}

/** The state after a run that durably wrote `written` records up to `maxId`. */
export function nextRunState(
  spec: RequestSpec,
  previous: RunState | undefined,
  maxId: number | undefined,
  written: number,
  now: Date,
): RunState {
  const old = previous?.watermark?.value;
  const value = maxId === undefined ? old : old === undefined ? maxId : Math.max(old, maxId);
  return {
    version: STATE_VERSION,
    fingerprint: fingerprintOf(spec),
    query: { path: spec.path, params: queryParams(spec) },
    watermark: value === undefined ? null : { by: 'id', value },
    runs: (previous?.runs ?? 0) + 1,
    records: (previous?.records ?? 0) + written,
    updated_at: now.toISOString(),
  };
}

/** The state as it stands, with a commit in progress recorded (commit.ts). */
export function withPending(
  spec: RequestSpec,
  base: RunState | undefined,
  pending: PendingCommit,
  now: Date,
): RunState {
  return {
    version: STATE_VERSION,
    fingerprint: fingerprintOf(spec),
    query: { path: spec.path, params: queryParams(spec) },
    watermark: base?.watermark ?? null,
    runs: base?.runs ?? 0,
    records: base?.records ?? 0,
    updated_at: now.toISOString(),
    pending,
  };
}

/**
 * Written only after the output is durably complete (fsynced and renamed),
 * or with its commit recorded, and only while this run still holds the
 * state's lock (verifyLockOn): every write, a run's first included.
 */
export async function commitRunState(file: string, state: RunState): Promise<void> {
  await verifyLockOn(file);
  await writeText(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** Puts back the state a run started from (none: no file), under the same lock. */
export async function restoreRunState(file: string, base: RunState | undefined): Promise<void> {
  if (base !== undefined) return commitRunState(file, base);
  await verifyLockOn(file);
  await removeFile(file);
}
