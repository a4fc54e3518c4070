/**
 * The two errors every layer raises: the base class, and the usage error for a
 * value refused before anything is sent. They live here, in the lowest layer
 * (params checks values and queries; api, output, mock and cli build on it), so
 * no arrow points up; `src/api/errors.ts` re-exports them with the client's
 * typed errors.
 */
/** Base of every error this tool raises on purpose; anything else is a bug. */
export class NewsError extends Error {
  override name = 'NewsError';
  /** An extra line for the user: what to do about it. */
  hint: string | undefined;
  /** Lines shown as they are under the error line (a query with a caret under the fault). */
  context: readonly string[] = [];
  constructor(message: string, options?: { hint?: string | undefined; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
  }
}

/** Bad flags, values or files: nothing was sent (exit 2). */
export class UsageError extends NewsError {
  override name = 'UsageError';
  /** The API error code the specification gives for this rule, when it gives one. */
  readonly code: string | undefined;
  constructor(message: string, options?: { hint?: string | undefined; code?: string | undefined }) {
    super(message, options);
    this.code = options?.code;
  }
}
