import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from '../api/errors.js';

/** Settings a profile may hold; each is also a global flag or environment variable. */
export const CONFIG_KEYS = ['api-key', 'base-url', 'auth', 'format', 'timeout', 'retries'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export type Profile = Partial<Record<ConfigKey, string>>;

export interface ConfigFile {
  /** The profile used when neither --profile nor NEWS_PROFILE names one. */
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** `$XDG_CONFIG_HOME/news/config.json`, else `~/.config/news/config.json`. */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'news', 'config.json');
}

export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new UsageError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`the config file ${path} is not valid JSON`, {
      hint: 'fix or delete it; `news config set` rewrites it',
    });
  }
  return normalise(parsed, path);
}

function normalise(value: unknown, path: string): ConfigFile {
  const bad = () =>
    new UsageError(`the config file ${path} does not have the expected shape`, {
      hint: 'expected {"profiles": {"default": {"api-key": "…"}}}',
    });
  if (typeof value !== 'object' || value === null) throw bad();
  const raw = value as { default_profile?: unknown; profiles?: unknown };
  const profiles: Record<string, Profile> = {};
  if (raw.profiles !== undefined) {
    if (typeof raw.profiles !== 'object' || raw.profiles === null) throw bad();
    for (const [name, profile] of Object.entries(raw.profiles)) {
      if (typeof profile !== 'object' || profile === null) throw bad();
      const clean: Profile = {};
      for (const [key, setting] of Object.entries(profile)) {
        if ((CONFIG_KEYS as readonly string[]).includes(key) && typeof setting === 'string') {
          clean[key as ConfigKey] = setting;
        }
      }
      profiles[name] = clean;
    }
  }
  return typeof raw.default_profile === 'string'
    ? { default_profile: raw.default_profile, profiles }
    : { profiles };
}

/** Writes atomically with mode 0600: the file holds API keys. */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}
