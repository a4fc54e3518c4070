/**
 * Opening a PostgreSQL connection the way libpq would read the same URL.
 * `pg` already takes PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE for
 * what the URL leaves out, and reads ~/.pgpass; what is added here:
 * `sslmode` (in the URL or PGSSLMODE) with libpq's meaning (`require`
 * encrypts without checking the certificate, as psql does; `pg` alone would
 * verify it), ~/.pgpass read without `pg`'s deprecation warning, the run's
 * `application_name` (`news PID@HOST`, which names it to a second run), and
 * every failure as the CLI's errors, without the password.
 */
import { hostname } from 'node:os';
import type { Client, ClientConfig } from 'pg';
import { ConnectionError } from '../../../api/errors.js';
import {
  DatabaseAuthError,
  DatabaseError,
  DatabaseLockError,
  SchemaConflictError,
  withoutSecret,
} from '../database/errors.js';
import { NewsError } from '../../../api/errors.js';
import { ASYNC_COMMITS, LZ4_VALUES } from './sql.js';

/** What the session needs of an open connection. */
export interface PgConnection {
  readonly client: Client;
  /** `postgres://USER@HOST:PORT/DB`, after the environment filled the gaps. */
  readonly where: string;
  readonly password: string | undefined;
}

/** How long a connection attempt may take before it counts as a network failure. */
const CONNECT_TIMEOUT_MS = 20_000;

/** What this run calls itself to the server, and so to a second run that finds its lock. */
export function applicationName(): string {
  return `news ${process.pid}@${hostname()}`.slice(0, 63);
}

/** `table` is named in a failure to connect, as in every other error of the session. */
export async function connectPostgres(
  url: string,
  redacted: string,
  table: string,
): Promise<PgConnection> {
  const [{ default: pg }, { parse }] = await Promise.all([
    import('pg'),
    import('pg-connection-string'),
  ]);
  // PGSSLMODE applies when the URL says nothing, as in libpq.
  const envMode = process.env['PGSSLMODE'];
  const withMode =
    envMode && !/[?&]sslmode=/i.test(url)
      ? `${url}${url.includes('?') ? '&' : '?'}sslmode=${encodeURIComponent(envMode)}`
      : url;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(withMode, { useLibpqCompat: true });
  } catch (error) {
    throw new DatabaseError(`${redacted}: ${errorText(error, undefined)}`);
  }
  const urlPassword = parsed.password || undefined;
  let usedPassword = urlPassword;
  const config: ClientConfig = {
    // pg reads the port as text too (parseInt).
    ...(parsed as unknown as ClientConfig),
    application_name: applicationName(),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // The URL's password, else PGPASSWORD, else ~/.pgpass (PGPASSFILE), as libpq looks.
    // pg passes its resolved connection parameters, which ~/.pgpass is matched on.
    password: async (...args: unknown[]) => {
      usedPassword =
        urlPassword ??
        (process.env['PGPASSWORD'] || undefined) ??
        (await fromPgpass(args[0] ?? {}));
      return usedPassword ?? '';
    },
  };
  const client = new pg.Client(config);
  const where = `postgres://${client.user ?? ''}@${client.host}:${client.port}/${client.database ?? ''}`;
  // A connection the server drops between queries is reported by the next query.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw postgresError(error, `${where}, table ${table}`, usedPassword);
  }
  return {
    client,
    where,
    get password() {
      return usedPassword;
    },
  };
}

async function fromPgpass(params: unknown): Promise<string | undefined> {
  const { default: pgpass } = await import('pgpass');
  return new Promise((resolve) => pgpass(params as object, (pass) => resolve(pass)));
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT',
]);

/**
 * A failure of `pg` or the server as the CLI's error: the server's
 * SQLSTATE decides authentication (28xxx, exit 3), a socket's errno or a
 * dropped connection the network (exit 5); the rest is a database failure
 * (exit 1). The message names where it happened; the password is removed
 * in case a text echoes it.
 */
export function postgresError(error: unknown, where: string, password: string | undefined): Error {
  if (
    error instanceof DatabaseError ||
    error instanceof SchemaConflictError ||
    error instanceof DatabaseLockError
  ) {
    return error;
  }
  if (error instanceof NewsError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = errorText(error, password);
  if (typeof code === 'string' && code.startsWith('28')) {
    return new DatabaseAuthError(
      `${where}: ${text}`,
      'check the user and password: in the URL, PGPASSWORD or ~/.pgpass',
    );
  }
  if (code === '3D000') {
    return new DatabaseError(`${where}: ${text}`, {
      hint: 'create the database first (createdb NAME)',
    });
  }
  if (
    (typeof code === 'string' && NETWORK.has(code)) ||
    (/timeout|terminated|Connection ended|ECONNREFUSED/i.test(text) && code === undefined)
  ) {
    return new ConnectionError(`cannot reach ${where}: ${text}`, {
      hint: 'check the host and port, and that the server is running (PGHOST, PGPORT)',
    });
  }
  // The server's own words, and its SQLSTATE for looking it up.
  return new DatabaseError(
    `${where}: ${text}${typeof code === 'string' ? ` (SQLSTATE ${code})` : ''}`,
  );
}

function errorText(error: unknown, password: string | undefined): string {
  const base =
    error instanceof AggregateError && error.errors.length > 0
      ? error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ')
      : error instanceof Error
        ? error.message || error.name
        : String(error);
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === 'string' && detail !== '' ? `${base} (${detail})` : base;
  return withoutSecret(text.replace(/\s+/g, ' ').trim(), password);
}

export type AsyncPgConnection = PgConnection & { readonly asyncCommits: boolean };

/** Asks for commits that do not wait for the disk; an engine that refuses keeps its own. */
export async function withAsyncCommits(conn: PgConnection): Promise<AsyncPgConnection> {
  const asyncCommits = await conn.client.query(ASYNC_COMMITS).then(
    (result) => result.rowCount === 1,
    () => false,
  );
  return Object.assign(conn, { asyncCommits });
}

/**
 * LZ4 instead of pglz for the wide values this session writes (TOAST),
 * where the server was built with it and no one set a compression for the
 * server, the database or the role: for 20,000 articles, 13 % less of the
 * server's CPU, 8 % less time to load and a table no larger
 * (bench/README.md, "Databases"). A server without LZ4, or an engine
 * without the setting, keeps its own. True when LZ4 took.
 */
export async function withLz4Values(conn: PgConnection): Promise<boolean> {
  return conn.client.query(LZ4_VALUES).then(
    (result) => result.rowCount === 1,
    () => false,
  );
}
