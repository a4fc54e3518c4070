/**
 * `postgres://…` and `duckdb:…` destinations, recognised by their scheme.
 * Cheap on purpose: every `-o` and `--state` is asked, and nothing of `pg`
 * or DuckDB may load for a path that is not a database.
 */
import { UsageError } from '../../../api/errors.js';
import type { DatabaseUrl } from './types.js';

const POSTGRES = /^postgres(?:ql)?:\/\//i;
const DUCKDB = /^duckdb:/i;

/** Query parameters whose value is a secret (libpq takes the password there too). */
const SECRET_PARAMS = /([?&](?:password|sslpassword)=)[^&#]*/gi;

/**
 * The database a destination names, or undefined when `text` is not a
 * database URL (a path, `-`, `s3://…`). A database URL that cannot be read
 * is a usage error naming it without its password.
 */
export function parseDatabaseUrl(text: string): DatabaseUrl | undefined {
  if (POSTGRES.test(text)) return parsePostgres(text);
  if (DUCKDB.test(text)) return parseDuckdb(text);
  return undefined;
}

function parsePostgres(text: string): DatabaseUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${redactPostgres(text)} is not a PostgreSQL URL`, {
      hint: 'write postgres://USER[:PASSWORD]@HOST[:PORT]/DB (special characters percent-encoded)',
    });
  }
  if (url.port !== '' && !/^\d+$/.test(url.port)) {
    throw new UsageError(`${redactPostgres(text)}: "${url.port}" is not a port`);
  }
  const database = safeDecode(url.pathname.replace(/^\//, ''));
  if (database.includes('/')) {
    throw new UsageError(`${redactPostgres(text)}: "${database}" is not a database name`, {
      hint: 'write postgres://USER@HOST[:PORT]/DB: one database, no further path',
    });
  }
  return { engine: 'postgres', url: text, redacted: redactPostgres(text) };
}

/**
 * The URL without its password, as typed otherwise: `user:secret@` becomes
 * `user@`, and `?password=` is masked. Works on text `URL` cannot parse,
 * so that even a refused URL is shown safely.
 */
export function redactPostgres(text: string): string {
  const scheme = POSTGRES.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  // The authority ends at the first '/', '?' or '#'; its userinfo at the last '@'.
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  let safeAuthority = authority;
  if (at !== -1) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    safeAuthority = `${colon === -1 ? userinfo : userinfo.slice(0, colon)}${authority.slice(at)}`;
  }
  const tail = end === -1 ? '' : rest.slice(end);
  return `${scheme}${safeAuthority}${tail.replace(SECRET_PARAMS, '$1***')}`;
}

function parseDuckdb(text: string): DatabaseUrl {
  const path = duckdbPath(text);
  if (path === '') {
    throw new UsageError(`${text} names no file`, {
      hint: 'write duckdb:PATH, e.g. duckdb:news.duckdb or duckdb:///var/lib/news.duckdb',
    });
  }
  return { engine: 'duckdb', url: text, redacted: text };
}

/**
 * The file of a `duckdb:` URL: `duckdb:news.duckdb` is relative to the
 * working directory, `duckdb:///abs/news.duckdb` and `duckdb:/abs/x` are
 * absolute. `duckdb://host/…` names a host, which a local file has not.
 */
export function duckdbPath(text: string): string {
  const rest = text.replace(DUCKDB, '');
  if (rest.startsWith('///')) return safeDecode(rest.slice(2));
  if (rest.startsWith('//')) {
    throw new UsageError(`${text}: a DuckDB file has no host`, {
      hint: 'write duckdb:relative/path.duckdb or duckdb:///absolute/path.duckdb',
    });
  }
  return rest;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
