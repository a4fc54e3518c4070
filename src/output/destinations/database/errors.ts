/**
 * The errors of a database destination, as the CLI's exit codes know them:
 * a refused login is an `AuthError` (exit 3), a server that cannot be reached
 * a `ConnectionError` (exit 5), a table that cannot take the records or a
 * state held by another run a plain `NewsError` (exit 1). Every message is
 * built from the redacted URL: the password is never in it.
 */
import { AuthError, ConnectionError, NewsError } from '../../../api/errors.js';

/** The server refused the user or password. */
export class DatabaseAuthError extends AuthError {
  override name = 'DatabaseAuthError';
  constructor(message: string, hint: string) {
    // 401 is what the CLI's table of codes reads as "authentication" (exit 3).
    super(401, message, { hint });
  }
}

/** An existing table has a column of a type the records' values do not fit. */
export class SchemaConflictError extends NewsError {
  override name = 'SchemaConflictError';
}

/** Another run holds the state (or the DuckDB file). */
export class DatabaseLockError extends NewsError {
  override name = 'DatabaseLockError';
}

/** Any other failure of the database, in its own words, with where it happened. */
export class DatabaseError extends NewsError {
  override name = 'DatabaseError';
}

export { ConnectionError };

/** `secret` removed from an engine's own text, in case a message echoes it. */
export function withoutSecret(text: string, secret: string | undefined): string {
  return secret !== undefined && secret !== '' ? text.split(secret).join('***') : text;
}
