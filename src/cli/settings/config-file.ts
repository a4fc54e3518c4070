import { readFileSync } from 'node:fs';
import { chmod, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { didYouMean } from '../../output/closest-name.js';
import { fileError } from '../../output/file-errors.js';
import { CONFIG_KEYS, type ConfigKey, SETTING_CHECKS, isConfigKey } from './checks.js';

export { CONFIG_KEYS, type ConfigKey, isConfigKey } from './checks.js';

export type Profile = Partial<Record<ConfigKey, string>>;

export interface ConfigFile {
  /** The profile used when neither --profile nor NEWS_PROFILE names one. */
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** One thing wrong in the file: where it is and what rule it breaks. */
export interface ConfigProblem {
  /** The profile holding the bad value; undefined for the file as a whole. */
  readonly profile: string | undefined;
  /** The setting; undefined when the problem is not one setting's. */
  readonly key: string | undefined;
  readonly message: string;
  /** An unknown setting is ignored, not fatal: a newer version may have written it. */
  readonly fatal: boolean;
}

/** The file as far as it could be used, and what was wrong with the rest. */
export interface LoadedConfig {
  readonly config: ConfigFile;
  readonly problems: readonly ConfigProblem[];
  /** The text is not JSON or not an object: nothing of it was usable. */
  readonly unreadable: boolean;
}

/**
 * The file's schema. zod is imported here, lazily, and only when a config
 * file exists: it costs about 120 ms to load, and `news --help` or a run
 * without a config file must not pay it. Each setting's rule is the one its
 * flag uses (checks.ts); numbers are accepted for timeout and retries
 * because a hand-edited file naturally holds them.
 */
async function configSchema() {
  const { z } = await import('zod');
  const setting = (key: ConfigKey) =>
    z
      .union([z.string(), z.number()])
      .transform((v) => String(v))
      .superRefine((value, ctx) => {
        const problem = SETTING_CHECKS[key](value);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      });
  const profile = z.object(
    Object.fromEntries(CONFIG_KEYS.map((k) => [k, setting(k).optional()])) as Record<
      ConfigKey,
      ReturnType<ReturnType<typeof setting>['optional']>
    >,
  );
  return z.object({
    default_profile: z.string().min(1).optional(),
    profiles: z.record(z.string(), profile.catchall(z.unknown())).optional(),
  });
}

/**
 * Reads the config file without ever throwing for its content: bad values
 * are left out and reported, so `news config` can always repair the file.
 * A missing file is an empty config.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  let text: string;
  try {
    // Read synchronously: the first asynchronous file call starts libuv's four
    // worker threads, a few ms of every start for a file of a few hundred bytes.
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { config: { profiles: {} }, problems: [], unreadable: false };
    }
    throw fileError('read', path, error, { what: 'the config file' });
  }
  const whole = (message: string): LoadedConfig => ({
    config: { profiles: {} },
    problems: [{ profile: undefined, key: undefined, message, fatal: true }],
    unreadable: true,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return whole('is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return whole('does not hold a JSON object');
  }
  const schema = await configSchema();
  const result = schema.safeParse(parsed);
  const problems: ConfigProblem[] = [];
  // Each issue's path tells which value to leave out: ["profiles", name, key].
  const bad = new Set<string>();
  let shapeBroken = false;
  for (const issue of result.success ? [] : result.error.issues) {
    const [top, name, key] = issue.path.map(String);
    if (top === 'profiles' && name !== undefined && key !== undefined) {
      bad.add(`${name}\u0000${key}`);
      problems.push({ profile: name, key, message: issue.message, fatal: true });
    } else if (top === 'profiles' && name !== undefined) {
      bad.add(`${name}\u0000`);
      problems.push({ profile: name, key: undefined, message: 'must be an object', fatal: true });
    } else {
      shapeBroken = true;
      problems.push({
        profile: undefined,
        key: top,
        message: top === 'profiles' ? 'must be an object of profiles' : issue.message,
        fatal: true,
      });
    }
  }
  const raw = parsed as { default_profile?: unknown; profiles?: unknown };
  const profiles: Record<string, Profile> = {};
  const rawProfiles =
    typeof raw.profiles === 'object' && raw.profiles !== null && !Array.isArray(raw.profiles)
      ? (raw.profiles as Record<string, unknown>)
      : {};
  for (const [name, value] of Object.entries(rawProfiles)) {
    if (bad.has(`${name}\u0000`) || typeof value !== 'object' || value === null) continue;
    const clean: Profile = {};
    for (const [key, setting] of Object.entries(value)) {
      if (!isConfigKey(key)) {
        const hint = didYouMean(key, CONFIG_KEYS);
        problems.push({
          profile: name,
          key,
          message: `is not a setting, ignored${hint ? ` (${hint})` : ''}`,
          fatal: false,
        });
        continue;
      }
      if (bad.has(`${name}\u0000${key}`)) continue;
      clean[key] = String(setting);
    }
    profiles[name] = clean;
  }
  const config: ConfigFile =
    typeof raw.default_profile === 'string' && raw.default_profile !== ''
      ? { default_profile: raw.default_profile, profiles }
      : { profiles };
  return { config, problems, unreadable: shapeBroken && Object.keys(profiles).length === 0 };
}

/** "the config file PATH: profile "x", key "format" must be …" */
export function describeProblem(path: string, problem: ConfigProblem): string {
  const where = [
    problem.profile === undefined ? undefined : `profile "${problem.profile}"`,
    problem.key === undefined ? undefined : `key "${problem.key}"`,
  ].filter(Boolean);
  return `the config file ${path}${where.length ? `: ${where.join(', ')}` : ''} ${problem.message}`;
}

/** A UsageError for the first fatal problem among `problems` (the caller filters). */
export function configError(path: string, problem: ConfigProblem): UsageError {
  const repair =
    problem.key !== undefined && problem.profile !== undefined && isConfigKey(problem.key)
      ? `fix it with \`news config set ${problem.key} VALUE${profileFlag(problem.profile)}\` or \`news config unset ${problem.key}${profileFlag(problem.profile)}\``
      : 'fix or delete the file; `news config path` prints where it is';
  return new UsageError(describeProblem(path, problem), { hint: repair });
}

function profileFlag(profile: string): string {
  return profile === 'default' ? '' : ` --profile ${profile}`;
}

/** Writes atomically with mode 0600: the file holds API keys. */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw fileError('write', path, error, { what: 'the config file' });
  }
}

/** Moves an unusable file aside so that `config set` can start a fresh one without losing it. */
export async function setAside(path: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const aside = `${path}.broken-${stamp}`;
  await rename(path, aside);
  return aside;
}
