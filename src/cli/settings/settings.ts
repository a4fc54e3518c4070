import { trimApiKey } from '../../api/api-key.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../api/defaults.js';
import { UsageError } from '../../api/errors.js';
import { formatFromPath } from '../../output/formats.js';
import type { FormatName } from '../../output/types.js';
import {
  type ConfigFile,
  type Profile,
  configError,
  describeProblem,
  isConfigKey,
  loadConfig,
} from './config-file.js';
import { configPath } from '../user-dirs.js';
import { type WriteMode, databaseOutput } from './database-output.js';
import { parseMaxResponseMb, parseTimeoutSeconds } from './limits.js';
import {
  type AUTH_METHODS,
  CONFIG_KEYS,
  type ConfigKey,
  FLAG_OF,
  SETTING_CHECKS,
  concurrencyOf,
} from './checks.js';
import type { GlobalName } from './global-options.js';

export const DEFAULT_BASE_URL = 'https://api.apitube.io';
export const MOCK_DEFAULT_KEY = 'api_live_mock_pro';
export { AUTH_METHODS } from './checks.js';
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The global options as commander parsed them (root program). */
export interface GlobalFlags {
  apiKey?: string;
  auth?: string;
  baseUrl?: string;
  mock?: boolean;
  format?: string;
  output?: string;
  table?: string;
  write?: string;
  fields?: string;
  dryRun?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  profile?: string;
  timeout?: string;
  maxResponseMb?: string;
  retries?: string;
  concurrency?: string;
  sanitize?: boolean;
}

/** Global settings after flag > environment > config file > default. */
export interface Settings {
  readonly apiKey: string | undefined;
  /** Where the key came from: `--dry-run`'s curl line reads $NEWS_API_KEY, which only the environment fills. */
  readonly apiKeySource: 'flag' | 'environment' | 'config' | undefined;
  readonly auth: AuthMethod;
  readonly baseUrl: string;
  readonly mock: boolean;
  readonly format: FormatName | undefined;
  readonly output: string | undefined;
  /** --table and --write, with a database -o (database-output.ts). */
  readonly table: string | undefined;
  readonly write: WriteMode | undefined;
  readonly fields: readonly string[] | undefined;
  readonly dryRun: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly profile: string;
  /** --profile or NEWS_PROFILE named a profile the config file lacks. */
  readonly profileMissing: boolean;
  readonly timeoutMs: number;
  /** The response size cap (--max-response-mb, NEWS_MAX_RESPONSE_MB). */
  readonly maxResponseBytes: number;
  readonly retries: number;
  /** --retries or the profile set `retries` (a stream then counts attempts instead of riding out an outage). */
  readonly retriesSet: boolean;
  /** Pages fetched at once by --all/--limit; `auto`: the client's adaptive default. */
  readonly concurrency: number | 'auto';
  readonly sanitize: boolean;
  readonly configPath: string;
  /** What was wrong but ignored in the config file (unknown settings), said once on stderr. */
  readonly configWarnings: readonly string[];
}

export interface ResolveOptions {
  /** How strictly the config file is read: `news config` must work on any file, to repair it. */
  readonly lenientConfig?: boolean;
  /**
   * The global options the command takes (default: all). A setting it does
   * not take is neither read nor checked, from flag, environment or file:
   * a bad NEWS_API_BASE_URL cannot stop `news convert`.
   */
  readonly globals?: readonly GlobalName[];
}

function pick<T>(...values: (T | undefined)[]): T | undefined {
  return values.find((v) => v !== undefined && v !== '');
}

/** A flag's or the environment's value, checked with the rule its config setting has. */
function checked(key: ConfigKey, value: string | undefined, label = FLAG_OF[key]): void {
  if (value === undefined) return;
  const problem = SETTING_CHECKS[key](value);
  if (problem !== undefined) throw new UsageError(`${label} ${problem} (got "${value}")`);
}

export async function resolveSettings(
  flags: GlobalFlags,
  io: { readonly env: Readonly<Record<string, string | undefined>> },
  options: ResolveOptions = {},
): Promise<Settings> {
  const takes = (name: GlobalName): boolean =>
    options.globals === undefined || options.globals.includes(name);
  // A variable set to the empty string counts as unset (a cron line's `NEWS_API_BASE_URL=`).
  const env = (name: string): string | undefined => {
    const value = io.env[name];
    return value === '' ? undefined : value;
  };
  const path = configPath(io.env);
  // A command that takes no setting the file can hold (completion, query check) never opens it.
  const readsConfig = takes('profile') || CONFIG_KEYS.some((key) => takes(key));
  const loaded = readsConfig
    ? await loadConfig(path)
    : { config: { profiles: {} }, problems: [], unreadable: false };
  const config: ConfigFile = loaded.config;
  const profileName = pick(flags.profile, env('NEWS_PROFILE'), config.default_profile) ?? 'default';
  const profile: Profile | undefined = config.profiles[profileName];
  // Values the file holds are checked there (config-file.ts) and named by file and key;
  // a problem in another profile, or with a setting this command does not use, does not stop it.
  const mine = loaded.problems.filter(
    (p) =>
      (p.profile === undefined || p.profile === profileName) &&
      (p.key === undefined || !isConfigKey(p.key) || takes(p.key)),
  );
  const fatal = mine.find((p) => p.fatal);
  if (fatal !== undefined && options.lenientConfig !== true) throw configError(path, fatal);
  const configWarnings = mine.filter((p) => !p.fatal).map((p) => describeProblem(path, p));
  // A named profile that does not exist is an error only when a request needs it
  // (Runtime.client); `news config set --profile new` creates it.
  const profileMissing =
    profile === undefined && (flags.profile !== undefined || env('NEWS_PROFILE') !== undefined);

  checked('auth', flags.auth);
  const auth = (takes('auth') ? pick(flags.auth, profile?.auth) : undefined) ?? 'header';
  const mockVariable = env('NEWS_API_MOCK');
  const mock =
    takes('mock') && (flags.mock === true || mockVariable === '1' || mockVariable === 'true');
  checked('format', flags.format);
  // -f, then the -o file's extension, then the profile: a profile's `format json`
  // must not write JSON into `-o out.csv`.
  // A database -o is written as tables: no format applies, a profile's neither.
  const database = databaseOutput(flags);
  const outputNamesFormat =
    flags.output !== undefined &&
    flags.output !== '-' &&
    (database || formatFromPath(flags.output) !== undefined);
  const format = takes('format')
    ? pick(flags.format, outputNamesFormat ? undefined : profile?.format)
    : undefined;
  const fields =
    flags.fields === undefined
      ? undefined
      : flags.fields
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== '');
  if (fields !== undefined && fields.length === 0)
    throw new UsageError('--fields needs at least one field name');
  checked('timeout', flags.timeout);
  checked('retries', flags.retries);
  checked('concurrency', flags.concurrency);
  checked('base-url', flags.baseUrl);
  if (flags.baseUrl === undefined && takes('base-url'))
    checked('base-url', env('NEWS_API_BASE_URL'), 'NEWS_API_BASE_URL');
  const timeout = takes('timeout') ? pick(flags.timeout, profile?.timeout) : undefined;
  const retries = takes('retries') ? pick(flags.retries, profile?.retries) : undefined;
  const concurrency = takes('concurrency')
    ? pick(flags.concurrency, profile?.concurrency)
    : undefined;
  const maxResponseMb = takes('max-response-mb')
    ? pick(flags.maxResponseMb, env('NEWS_MAX_RESPONSE_MB'))
    : undefined;
  const baseUrl =
    (takes('base-url')
      ? pick(flags.baseUrl, env('NEWS_API_BASE_URL'), profile?.['base-url'])
      : undefined) ?? DEFAULT_BASE_URL;

  // Trimmed here (a key pasted with its line end); checked by the client, so a
  // bad key in the environment does not break commands that send nothing.
  function apiKeyOf(): Pick<Settings, 'apiKey' | 'apiKeySource'> {
    const sources = [
      ['flag', trimApiKey(flags.apiKey)],
      ['environment', trimApiKey(env('NEWS_API_KEY'))],
      ['config', trimApiKey(profile?.['api-key'])],
    ] as const;
    const found = takes('api-key') ? sources.find(([, key]) => key !== undefined) : undefined;
    return { apiKey: found?.[1], apiKeySource: found?.[0] };
  }

  return {
    ...apiKeyOf(),
    auth: auth as AuthMethod,
    baseUrl,
    mock,
    format: format as FormatName | undefined,
    output: flags.output,
    table: flags.table,
    write: flags.write as WriteMode | undefined,
    fields,
    dryRun: flags.dryRun === true,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
    profile: profileName,
    profileMissing,
    // Above the service's 30 s worst case, as its client guidance asks.
    timeoutMs: timeout === undefined ? 60_000 : parseTimeoutSeconds(timeout),
    maxResponseBytes:
      maxResponseMb === undefined
        ? DEFAULT_MAX_RESPONSE_BYTES
        : parseMaxResponseMb(
            maxResponseMb,
            flags.maxResponseMb === undefined ? 'NEWS_MAX_RESPONSE_MB' : '--max-response-mb',
          ),
    retries: retries === undefined ? 3 : Number(retries),
    retriesSet: retries !== undefined,
    concurrency: concurrency === undefined ? 'auto' : (concurrencyOf(concurrency) ?? 'auto'),
    sanitize: flags.sanitize !== false,
    configPath: path,
    configWarnings,
  };
}
