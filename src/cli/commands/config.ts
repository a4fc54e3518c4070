import { checkApiKey } from '../../api/api-key.js';
import { UsageError } from '../../api/errors.js';
import { didYouMean } from '../../output/closest-name.js';
import type { CommandSpec } from '../command-spec.js';
import {
  CONFIG_KEYS,
  type ConfigFile,
  type ConfigKey,
  type ConfigProblem,
  type LoadedConfig,
  configError,
  describeProblem,
  isConfigKey,
  loadConfig,
  setAside,
  writeConfig,
} from '../settings/config-file.js';
import { redactKey } from '../redact-key.js';
import type { Runtime } from '../runtime/runtime.js';
import { FLAG_OF, SETTING_CHECKS } from '../settings/checks.js';

function keyArg(key: string | undefined): ConfigKey {
  if (key === undefined || !isConfigKey(key)) {
    const close = key === undefined ? undefined : didYouMean(key, CONFIG_KEYS);
    throw new UsageError(`unknown setting "${key ?? ''}"`, {
      hint: `${close ? `${close} ` : ''}settings: ${CONFIG_KEYS.join(', ')}`,
    });
  }
  return key;
}

const shown = (key: ConfigKey, value: string) => (key === 'api-key' ? redactKey(value) : value);

/**
 * The file for a command that rewrites it. Problems are said (they are being
 * repaired); a file that is not JSON at all is moved aside, never overwritten
 * blind and never a reason to refuse: the config must not lock the user out.
 */
async function loadForWrite(
  runtime: Runtime,
): Promise<{ path: string; config: ConfigFile; dropped: LoadedConfig['problems'] }> {
  const path = runtime.settings.configPath;
  const loaded = await loadConfig(path);
  if (loaded.unreadable) {
    const aside = await setAside(path, runtime.io.now());
    runtime.report.warn(`${describeProblem(path, loaded.problems[0]!)}; moved it to ${aside}`);
    return { path, config: { profiles: {} }, dropped: [] };
  }
  return { path, config: loaded.config, dropped: loaded.problems };
}

/** Rewriting the file leaves out what could not be used: say so for each such value. */
function sayDropped(runtime: Runtime, path: string, dropped: LoadedConfig['problems']): void {
  for (const problem of dropped) {
    runtime.report.warn(`${describeProblem(path, problem)}; left out of the rewritten file`);
  }
}

/**
 * The problem that hides `key` of `profile`: the file unreadable as a whole,
 * the profiles not an object, the profile not one, or the value itself bad.
 */
function blockingProblem(
  loaded: LoadedConfig,
  profile: string,
  key: ConfigKey,
): ConfigProblem | undefined {
  if (loaded.unreadable) return loaded.problems.find((p) => p.fatal);
  return loaded.problems.find(
    (p) =>
      p.fatal &&
      (p.profile === undefined
        ? p.key === 'profiles'
        : p.profile === profile && (p.key === undefined || p.key === key)),
  );
}

/** What `get` and `list` see, with every problem said on stderr. */
async function loadForRead(runtime: Runtime): Promise<LoadedConfig> {
  const path = runtime.settings.configPath;
  const loaded = await loadConfig(path);
  for (const problem of loaded.problems) runtime.report.warn(describeProblem(path, problem));
  return loaded;
}

async function set(args: readonly string[], runtime: Runtime): Promise<void> {
  const key = keyArg(args[0]);
  // A key is trimmed and checked as the client will check it, so a pasted line
  // end or a control character is refused now, not at the first request.
  const value = key === 'api-key' ? checkApiKey(args[1]) : args[1];
  if (value === undefined) throw new UsageError('config set needs a value');
  // The rule the flag has: `config set format yaml` must not break every later command.
  const problem = SETTING_CHECKS[key](value);
  if (problem !== undefined) {
    throw new UsageError(`${key} ${problem} (got "${value}")`, {
      hint: `the same rule as ${FLAG_OF[key]}; nothing was written`,
    });
  }
  const { path, config, dropped } = await loadForWrite(runtime);
  const profile = runtime.settings.profile;
  config.profiles[profile] = { ...config.profiles[profile], [key]: value };
  sayDropped(
    runtime,
    path,
    dropped.filter((p) => !(p.profile === profile && p.key === key)),
  );
  await writeConfig(path, config);
  runtime.report.notice(`set ${key} = ${shown(key, value)} in profile "${profile}" (${path})`);
}

async function unset(args: readonly string[], runtime: Runtime): Promise<void> {
  const key = args[0];
  if (key === undefined) throw new UsageError('config unset needs a setting name');
  const { path, config, dropped } = await loadForWrite(runtime);
  const profile = runtime.settings.profile;
  const current = config.profiles[profile];
  // A bad or misspelt value was left out by loadConfig; removing it is what the user asks.
  const wasBad = dropped.some((p) => p.profile === profile && p.key === key);
  if (!wasBad && (current === undefined || !(key in current))) {
    if (!isConfigKey(key)) keyArg(key);
    runtime.report.notice(`"${key}" was not set in profile "${profile}"`);
    return;
  }
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(current ?? {})) if (k !== key) kept[k] = v;
  config.profiles[profile] = kept;
  sayDropped(
    runtime,
    path,
    dropped.filter((p) => !(p.profile === profile && p.key === key)),
  );
  await writeConfig(path, config);
  runtime.report.notice(`removed ${key} from profile "${profile}" (${path})`);
}

export const config: CommandSpec = {
  name: 'config',
  group: 'account',
  summary: 'read and write settings in named profiles (XDG config file, mode 0600)',
  description:
    'Settings: api-key, base-url, auth, format, timeout, retries, concurrency; each value must pass the rule of its flag. A flag beats the environment, which beats the config file. --profile NAME (or NEWS_PROFILE) picks the profile; "default" otherwise. A bad value in the file is reported with the file and the key; `news config` itself always runs, so it can repair the file.',
  lenientConfig: true,
  // It edits the file: --profile picks the profile; nothing is sent.
  globals: ['profile'],
  subcommands: [
    {
      name: 'set',
      summary: 'set a setting in the current profile',
      args: [
        { name: 'key', description: CONFIG_KEYS.join('|'), choices: CONFIG_KEYS },
        { name: 'value', description: 'the value' },
      ],
      examples: [
        'news config set api-key api_live_mock_basic --profile work',
        'news config set format jsonl',
        'news config set timeout 30 --profile work',
      ],
      run: (input, runtime) => set(input.args, runtime),
    },
    {
      name: 'unset',
      summary: 'remove a setting from the current profile',
      args: [{ name: 'key', description: CONFIG_KEYS.join('|'), choices: CONFIG_KEYS }],
      examples: ['news config unset format', 'news config unset api-key --profile work'],
      run: (input, runtime) => unset(input.args, runtime),
    },
    {
      name: 'get',
      summary: 'print a setting of the current profile (the key redacted)',
      args: [{ name: 'key', description: CONFIG_KEYS.join('|'), choices: CONFIG_KEYS }],
      examples: ['news config get format', 'news config get api-key --profile work'],
      async run(input, runtime) {
        const key = keyArg(input.args[0]);
        const path = runtime.settings.configPath;
        const { profile } = runtime.settings;
        const loaded = await loadConfig(path);
        // What keeps the value from being read is the error, not a warning before "not set".
        const blocking = blockingProblem(loaded, profile, key);
        for (const problem of loaded.problems)
          if (problem !== blocking) runtime.report.warn(describeProblem(path, problem));
        const value = loaded.config.profiles[profile]?.[key];
        if (value === undefined && blocking !== undefined) {
          const error = configError(path, blocking);
          throw new UsageError(`cannot read "${key}" of profile "${profile}": ${error.message}`, {
            hint: error.hint,
          });
        }
        if (value === undefined) {
          throw new UsageError(`"${key}" is not set in profile "${profile}" (${path})`);
        }
        await runtime.write(`${shown(key, value)}\n`);
      },
    },
    {
      name: 'list',
      summary: 'list every profile and its settings (keys redacted)',
      examples: ['news config list', 'news config list --profile work'],
      async run(_input, runtime) {
        const path = runtime.settings.configPath;
        const { config } = await loadForRead(runtime);
        const lines: string[] = [`# ${path}`];
        for (const [name, profile] of Object.entries(config.profiles)) {
          lines.push(`[${name}]${name === runtime.settings.profile ? ' (current)' : ''}`);
          for (const key of CONFIG_KEYS) {
            const value = profile[key];
            if (value !== undefined) lines.push(`${key} = ${shown(key, value)}`);
          }
        }
        await runtime.write(`${lines.join('\n')}\n`);
      },
    },
    {
      name: 'path',
      summary: 'print where the config file is (whether or not it exists yet)',
      examples: ['news config path', 'ls -l "$(news config path)"'],
      async run(_input, runtime) {
        await runtime.write(`${runtime.settings.configPath}\n`);
      },
    },
  ],
};
