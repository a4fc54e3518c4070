import {
  ApiError,
  AuthError,
  ConnectionError,
  InterruptedError,
  NewsError,
  NotFoundError,
  PermissionError,
  PointsError,
  RateLimitError,
  TimeoutError,
  UsageError,
} from '../api/errors.js';
import { redactText } from '../api/redact.js';
import { type FileAction, errnoOf, fileError, fileProblem } from '../output/file-errors.js';
import { stripUnsafe } from '../output/terminal-safe.js';
import { DatabaseAuthError } from '../output/destinations/database/errors.js';
import { BudgetError } from './budget-error.js';

/** The contract's exit codes. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  points: 4,
  network: 5,
  /** SIGHUP: the terminal went away (128 + 1). */
  hangup: 129,
  interrupted: 130,
} as const;

export interface Failure {
  readonly exitCode: number;
  /** `error: …` and optional `hint: …` lines, without newlines. */
  readonly lines: readonly string[];
}

function hintFor(error: ApiError): string | undefined {
  if (error.hint) return error.hint;
  if (error instanceof AuthError)
    return 'check the key: --api-key, NEWS_API_KEY or `news config set api-key`';
  if (error instanceof PermissionError) {
    return error.code === 'ER0706'
      ? 'prompt needs the Basic plan or above'
      : 'the key lacks the scope or plan for this call';
  }
  if (error instanceof PointsError) return 'no points left: see `news balance`';
  if (error instanceof RateLimitError)
    return 'rate limit still hit after retries; wait and try again, or --retries N';
  if (error instanceof NotFoundError && error.code === 'ER0151') return undefined;
  return undefined;
}

/**
 * The one place that turns an error into an exit code and the lines stderr
 * shows. Every line goes through the terminal sanitiser: messages, codes and
 * request ids come from the server, and a newline or an escape sequence in
 * them must not forge a line or reach the terminal. `secret` (the API key in
 * use) is redacted from every line, before and after sanitising, so that an
 * escape sequence inside an echoed key cannot hide it from the redaction.
 */
export function describeFailure(error: unknown, verbose: boolean, secret?: string): Failure {
  const failure = failureOf(error, verbose);
  const lines = failure.lines.flatMap((line, i) =>
    // Only a stack trace (verbose, last line) keeps its own line breaks.
    verbose && i === failure.lines.length - 1 && i > 0 && line.includes('\n    at ')
      ? line.split('\n')
      : [line],
  );
  return {
    exitCode: failure.exitCode,
    lines: lines.map((line) => redactText(stripUnsafe(redactText(line, secret)), secret)),
  };
}

function failureOf(error: unknown, verbose: boolean): Failure {
  if (error instanceof UsageError) {
    const [head, ...hint] = withHint(`error: ${error.message}`, error.hint);
    return { exitCode: EXIT.usage, lines: [head!, ...error.context.map((l) => `  ${l}`), ...hint] };
  }
  // A database refused the login: no HTTP status to show, the same exit code as a refused key.
  if (error instanceof DatabaseAuthError)
    return { exitCode: EXIT.auth, lines: withHint(`error: ${error.message}`, error.hint) };
  if (error instanceof ApiError) {
    const tags = [error.code, error.requestId ? `request id ${error.requestId}` : undefined].filter(
      Boolean,
    );
    const head = `error: ${error.message} (HTTP ${error.status}${tags.length ? `, ${tags.join(', ')}` : ''})`;
    const exitCode =
      error instanceof AuthError || error instanceof PermissionError
        ? EXIT.auth
        : error instanceof PointsError || error instanceof RateLimitError
          ? EXIT.points
          : EXIT.failure;
    return { exitCode, lines: withHint(head, hintFor(error)) };
  }
  // --max-points: refused or stopped before spending more, like running out of points.
  if (error instanceof BudgetError)
    return { exitCode: EXIT.points, lines: withHint(`error: ${error.message}`, error.hint) };
  if (error instanceof InterruptedError)
    return { exitCode: EXIT.interrupted, lines: withHint('error: interrupted', error.hint) };
  if (error instanceof TimeoutError || error instanceof ConnectionError) {
    return {
      exitCode: EXIT.network,
      lines: withHint(`error: ${error.message}`, error.hint ?? networkHint(error)),
    };
  }
  if (error instanceof NewsError)
    return { exitCode: EXIT.failure, lines: withHint(`error: ${error.message}`, error.hint) };
  const system = systemFileError(error);
  if (system !== undefined)
    return { exitCode: EXIT.failure, lines: withHint(`error: ${system.message}`, system.hint) };
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`error: unexpected failure: ${message}`];
  if (verbose && error instanceof Error && error.stack) lines.push(error.stack);
  else lines.push('hint: run again with --verbose for details');
  return { exitCode: EXIT.failure, lines };
}

/** What a network failure without a hint of its own is told. */
export function networkHint(error: TimeoutError | ConnectionError): string {
  if (error instanceof ConnectionError)
    return 'check the network or --base-url; --retries N retries more';
  // The client speaks of "the timeout"; here it becomes the flag that sets it.
  return error.message.startsWith('cannot connect')
    ? 'check the network or --base-url; --timeout SECONDS waits longer (default 60)'
    : 'the server may be slow for this query: raise --timeout SECONDS (default 60) or narrow the filters';
}

function withHint(head: string, hint: string | undefined): string[] {
  return hint ? [head, `hint: ${hint}`] : [head];
}

const READS = new Set([
  'read',
  'scandir',
  'opendir',
  'readlink',
  'stat',
  'lstat',
  'fstat',
  'access',
]);
const WRITES = new Set([
  'open',
  'write',
  'close',
  'fsync',
  'fdatasync',
  'rename',
  'unlink',
  'mkdir',
  'rmdir',
  'rm',
  'ftruncate',
  'truncate',
  'copyfile',
  'chmod',
  'fchmod',
  'mkdtemp',
]);

/**
 * A file operation's own error (`ENOSPC: no space left on device, write`)
 * that no caller put in words: in the words of output/file-errors.ts. Without
 * a path it was a stream on a descriptor, which here is the output.
 */
function systemFileError(error: unknown): NewsError | undefined {
  const { syscall, path } = (error ?? {}) as { syscall?: unknown; path?: unknown };
  if (errnoOf(error) === undefined || typeof syscall !== 'string') return undefined;
  if (!READS.has(syscall) && !WRITES.has(syscall)) return undefined;
  const action: FileAction = READS.has(syscall) ? 'read' : syscall === 'open' ? 'open' : 'write';
  if (typeof path === 'string') return fileError(action, path, error, { failure: true });
  return new NewsError(`cannot ${action} the output: ${fileProblem(action, '', error).reason}`);
}
