import { trimApiKey } from '../api/api-key.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../api/defaults.js';
import { UsageError } from '../api/errors.js';
import { FORMAT_NAMES } from '../output/formats.js';
import type { FormatName } from '../output/types.js';
import { type ConfigFile, type Profile, configPath, readConfig } from './config-file.js';
import type { CliIO } from './context.js';
import { parseMaxResponseMb, parseTimeoutSeconds } from './limits.js';

export const DEFAULT_BASE_URL = 'https://api.apitube.io';
export const MOCK_DEFAULT_KEY = 'api_live_mock_pro';
export const AUTH_METHODS = ['header', 'bearer', 'query'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The global options as commander parsed them (root program). */
export interface GlobalFlags {
  apiKey?: string;
  auth?: string;
  baseUrl?: string;
  mock?: boolean;
  format?: string;
  output?: string;
  fields?: string;
  dryRun?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  profile?: string;
  timeout?: string;
  maxResponseMb?: string;
  retries?: string;
  sanitize?: boolean;
}

/** Global settings after flag > environment > config file > default. */
export interface Settings {
  readonly apiKey: string | undefined;
  readonly auth: AuthMethod;
  readonly baseUrl: string;
  readonly mock: boolean;
  readonly format: FormatName | undefined;
  readonly output: string | undefined;
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
  readonly sanitize: boolean;
  readonly configPath: string;
}

function pick<T>(...values: (T | undefined)[]): T | undefined {
  return values.find((v) => v !== undefined && v !== '');
}

function positiveNumber(label: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(
      `${label} must be a ${integer ? 'whole number' : 'number'} of at least 0 (got "${value}")`,
    );
  }
  return n;
}

export async function resolveSettings(flags: GlobalFlags, io: CliIO): Promise<Settings> {
  const env = io.env;
  const path = configPath(env);
  const config: ConfigFile = await readConfig(path);
  const profileName = pick(flags.profile, env['NEWS_PROFILE'], config.default_profile) ?? 'default';
  const profile: Profile | undefined = config.profiles[profileName];
  // A named profile that does not exist is an error only when a request needs it
  // (Runtime.client); `news config set --profile new` creates it.
  const profileMissing =
    profile === undefined && (flags.profile !== undefined || env['NEWS_PROFILE'] !== undefined);

  const auth = pick(flags.auth, profile?.auth) ?? 'header';
  if (!(AUTH_METHODS as readonly string[]).includes(auth)) {
    throw new UsageError(`--auth must be one of ${AUTH_METHODS.join(', ')} (got "${auth}")`);
  }
  const mock =
    flags.mock === true || env['NEWS_API_MOCK'] === '1' || env['NEWS_API_MOCK'] === 'true';
  const format = pick(flags.format, profile?.format);
  if (format !== undefined && !(FORMAT_NAMES as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')} (got "${format}")`);
  }
  const fields =
    flags.fields === undefined
      ? undefined
      : flags.fields
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== '');
  if (fields !== undefined && fields.length === 0)
    throw new UsageError('--fields needs at least one field name');
  const timeout = pick(flags.timeout, profile?.timeout);
  const retries = pick(flags.retries, profile?.retries);
  const maxResponseMb = pick(flags.maxResponseMb, env['NEWS_MAX_RESPONSE_MB']);
  const baseUrl =
    pick(flags.baseUrl, env['NEWS_API_BASE_URL'], profile?.['base-url']) ?? DEFAULT_BASE_URL;
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url must be an absolute URL (got "${baseUrl}")`);
  }

  return {
    // Trimmed here (a key pasted with its line end); checked by the client, so a
    // bad key in the environment does not break commands that send nothing.
    apiKey: pick(
      trimApiKey(flags.apiKey),
      trimApiKey(env['NEWS_API_KEY']),
      trimApiKey(profile?.['api-key']),
    ),
    auth: auth as AuthMethod,
    baseUrl,
    mock,
    format: format as FormatName | undefined,
    output: flags.output,
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
    retries: retries === undefined ? 3 : positiveNumber('--retries', retries, true),
    sanitize: flags.sanitize !== false,
    configPath: path,
  };
}
