/**
 * Every destination `-o` and `--state` can name, by scheme: the one place
 * that looks at a name's scheme. A name no scheme claims is a local file;
 * `-` (or no `-o`) is standard output. A new destination is a folder beside
 * these and one line in SCHEMES.
 *
 * Resolving is synchronous and cheap: each scheme's module is small, and
 * what is heavy behind it (the AWS SDK, a database driver) is imported when
 * the destination is first used.
 */
import { UsageError } from '../../api/errors.js';
import { openDatabase } from './database/open.js';
import { parseDatabaseUrl } from './database/url.js';
import type { ByteStore, Destination } from './destination.js';
import { fileStore } from './file/store.js';
import { s3Store } from './s3/store.js';

interface Scheme {
  /** The prefix that names this destination, compared without case. */
  readonly prefix: string;
  readonly resolve: (name: string) => Destination;
}

const inStore =
  (store: ByteStore) =>
  (path: string): Destination => ({ kind: 'store', path, store });

const inDatabase = (name: string): Destination => {
  const url = parseDatabaseUrl(name)!;
  return { kind: 'database', url, open: (options, hooks) => openDatabase(url, options, hooks) };
};

const SCHEMES: readonly Scheme[] = [
  { prefix: 's3://', resolve: inStore(s3Store) },
  { prefix: 'postgres://', resolve: inDatabase },
  { prefix: 'postgresql://', resolve: inDatabase },
  { prefix: 'duckdb:', resolve: inDatabase },
];

function schemeOf(name: string): Scheme | undefined {
  const lower = name.slice(0, 16).toLowerCase();
  return SCHEMES.find((scheme) => lower.startsWith(scheme.prefix));
}

/** What `-o NAME` names. */
export function resolveDestination(name: string | undefined): Destination {
  if (name === undefined || name === '-') return { kind: 'stdout' };
  return (schemeOf(name)?.resolve ?? inStore(fileStore))(name);
}

/**
 * The byte store a path lives in (a state file, a checkpoint, a staged
 * file, a log): the local file system unless a scheme claims the name. A
 * database is no place for a file.
 */
export function storeOf(path: string): ByteStore {
  const destination = resolveDestination(path);
  if (destination.kind === 'database') {
    throw new UsageError(`${destination.url.redacted} is a database: this needs a file`, {
      hint: 'name a local file or an s3:// object here',
    });
  }
  return destination.kind === 'store' ? destination.store : fileStore;
}

/** How messages, --dry-run and --log-file show a destination: a database without its password. */
export function describeDestination(name: string): string {
  const destination = resolveDestination(name);
  return destination.kind === 'database' ? destination.url.redacted : name;
}
