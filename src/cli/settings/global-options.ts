/**
 * The global options, declared once. Each command says which of them it uses
 * (`CommandSpec.globals`); program.ts gives a command exactly those, so its
 * parser, its `--help` and shell completion (read off the same commander
 * program) cannot disagree, and an option a command would ignore is refused
 * (exit 2) instead of silently doing nothing. Settings (settings/settings.ts)
 * read and check only what the command uses: `news convert` never looks at
 * the API key, the base URL or the auth method.
 *
 * Decisions per option (README, "Global options"):
 * - the request options (key, auth, base URL, mock, profile, timeout, response
 *   cap, retries, dry run) belong to commands that send requests;
 * - the output options (-f, -o, --fields, --no-sanitize) to commands that
 *   print a result: records, or one record (`balance`); `count` and `ping`
 *   print their value and, with -f or -o, a record of it (CommandSpec
 *   `valueUnlessAsked`); a command may take fewer formats (`formats`);
 * - -q and -v to every command.
 * Plain data: this file is on every command's start-up path.
 */
import { FORMAT_NAMES } from '../../output/formats.js';
import type { FormatName } from '../../output/types.js';
import { AUTH_METHODS } from './checks.js';
import type { ValueSource } from '../value-source.js';

export const GLOBAL_NAMES = [
  'api-key',
  'auth',
  'base-url',
  'mock',
  'profile',
  'format',
  'output',
  'table',
  'write',
  'fields',
  'sanitize',
  'dry-run',
  'timeout',
  'max-response-mb',
  'retries',
  'concurrency',
  'quiet',
  'verbose',
] as const;
export type GlobalName = (typeof GLOBAL_NAMES)[number];

/** The options that mean something with a database -o only: `news --help` leaves them to the commands' help. */
export const DATABASE_ONLY: ReadonlySet<string> = new Set(['--table', '--write']);

/** How a database -o writes (--write): merge by id, append rows, or replace the table at the end. */
export const WRITE_MODES = ['merge', 'append', 'replace'] as const;

export interface GlobalOptionDef {
  readonly name: GlobalName;
  /** Commander flags. */
  readonly flags: string;
  readonly description: string;
  /** What completion offers for the value. */
  readonly source?: ValueSource;
}

/** -f, for a command that writes `formats` (CommandSpec `formats`): help and completion list them. */
export function formatOption(formats: readonly FormatName[]): GlobalOptionDef {
  return {
    name: 'format',
    flags: '-f, --format <format>',
    description: `output format: ${formats.join('|')}`,
    source: { choices: formats.map((f) => [f, '']) },
  };
}

export const GLOBAL_OPTIONS: readonly GlobalOptionDef[] = [
  { name: 'api-key', flags: '--api-key <key>', description: 'API key (env NEWS_API_KEY)' },
  {
    name: 'auth',
    flags: '--auth <method>',
    description: `how the key is sent: ${AUTH_METHODS.join('|')} (default header)`,
    source: { choices: AUTH_METHODS.map((m) => [m, '']) },
  },
  {
    name: 'base-url',
    flags: '--base-url <url>',
    description: 'API root (env NEWS_API_BASE_URL; default https://api.apitube.io)',
  },
  {
    name: 'mock',
    flags: '--mock',
    description: 'use the built-in mock server with fixture data (env NEWS_API_MOCK=1)',
  },
  {
    name: 'profile',
    flags: '--profile <name>',
    description: 'config profile to use (env NEWS_PROFILE)',
    source: { hint: 'profile' },
  },
  formatOption(FORMAT_NAMES),
  {
    name: 'output',
    flags: '-o, --output <file>',
    description:
      'write to FILE atomically (format from the extension), s3://BUCKET/KEY, postgres://USER@HOST/DB or duckdb:PATH; - for stdout',
    source: { hint: 'file' },
  },
  {
    name: 'table',
    flags: '--table <name>',
    description:
      'with a database -o: the table (default: articles, people, …; schema.table on PostgreSQL)',
  },
  {
    name: 'write',
    flags: '--write <mode>',
    description: `with a database -o: ${WRITE_MODES.join('|')} (default merge: by id, the latest wins)`,
    source: { choices: WRITE_MODES.map((m) => [m, '']) },
  },
  {
    name: 'fields',
    flags: '--fields <list>',
    description: 'comma-separated dotted fields to keep, in order (id,title,source.domain)',
    source: { hint: 'fields', list: true },
  },
  {
    name: 'sanitize',
    flags: '--no-sanitize',
    description: 'keep cells starting with = + - @ as they are in csv, tsv and xlsx',
  },
  {
    name: 'dry-run',
    flags: '--dry-run',
    description: 'print the request (key redacted) and the curl equivalent; send nothing',
  },
  {
    name: 'timeout',
    flags: '--timeout <seconds>',
    description: 'per-request timeout (default 60)',
  },
  {
    name: 'max-response-mb',
    flags: '--max-response-mb <n>',
    description: 'largest response read, in MB (default 64; also NEWS_MAX_RESPONSE_MB)',
  },
  {
    name: 'retries',
    flags: '--retries <n>',
    description: 'retries on network errors, 408, 429 and 5xx (default 3)',
  },
  {
    name: 'concurrency',
    flags: '--concurrency <n>',
    description:
      'pages fetched at once by --all/--limit, 1 to 16 (default auto: adapts to the rate limit)',
  },
  { name: 'quiet', flags: '-q, --quiet', description: 'only errors and warnings on stderr' },
  {
    name: 'verbose',
    flags: '-v, --verbose',
    description: 'more on stderr: retries, points, rate limits, stack traces',
  },
];

/** The help group of the global options: how help, the man page and completion tell them apart. */
export const GLOBAL_GROUP = 'Global options:';

export function isGlobalOption(option: {
  readonly helpGroupHeading?: string | undefined;
}): boolean {
  return option.helpGroupHeading === GLOBAL_GROUP;
}

/** Every command takes these. */
export const ALWAYS: readonly GlobalName[] = ['quiet', 'verbose'];

/** What a command that sends requests takes. */
export const REQUEST: readonly GlobalName[] = [
  'api-key',
  'auth',
  'base-url',
  'mock',
  'profile',
  'dry-run',
  'timeout',
  'max-response-mb',
  'retries',
];

/** What a command that writes records takes. */
export const OUTPUT: readonly GlobalName[] = [
  'format',
  'output',
  'table',
  'write',
  'fields',
  'sanitize',
];

/** The formats of one record: not rss, a feed of articles. */
export const RECORD_FORMATS: readonly FormatName[] = FORMAT_NAMES.filter((f) => f !== 'rss');

/** What a command that fetches many pages (`--all`, `--limit`, `news article`) adds. */
export const PAGING: readonly GlobalName[] = ['concurrency'];

/** A command that declares nothing sends requests and writes records. */
export const DEFAULT_GLOBALS: readonly GlobalName[] = [...REQUEST, ...OUTPUT];

/** The global options of a command, in table order, -q and -v included. */
export function globalsOf(declared: readonly GlobalName[] | undefined): GlobalOptionDef[] {
  const names = new Set<GlobalName>([...(declared ?? DEFAULT_GLOBALS), ...ALWAYS]);
  return GLOBAL_OPTIONS.filter((o) => names.has(o.name));
}
