import { UsageError } from '../../api/errors.js';
import type { CommandSpec } from '../command-spec.js';
import {
  CONFIG_KEYS,
  type ConfigKey,
  isConfigKey,
  readConfig,
  writeConfig,
} from '../config-file.js';
import { redactKey } from '../redact-key.js';
import type { Runtime } from '../runtime.js';

function keyArg(key: string | undefined): ConfigKey {
  if (key === undefined || !isConfigKey(key)) {
    throw new UsageError(`unknown setting "${key ?? ''}"`, {
      hint: `settings: ${CONFIG_KEYS.join(', ')}`,
    });
  }
  return key;
}

const shown = (key: ConfigKey, value: string) => (key === 'api-key' ? redactKey(value) : value);

async function set(args: readonly string[], runtime: Runtime): Promise<void> {
  const key = keyArg(args[0]);
  const value = args[1];
  if (value === undefined) throw new UsageError('config set needs a value');
  const path = runtime.settings.configPath;
  const config = await readConfig(path);
  const profile = runtime.settings.profile;
  config.profiles[profile] = { ...config.profiles[profile], [key]: value };
  await writeConfig(path, config);
  runtime.report.notice(`set ${key} = ${shown(key, value)} in profile "${profile}" (${path})`);
}

export const config: CommandSpec = {
  name: 'config',
  group: 'account',
  summary: 'read and write settings in named profiles (XDG config file, mode 0600)',
  description:
    'Settings: api-key, base-url, auth, format, timeout, retries. A flag beats the environment, which beats the config file. --profile NAME (or NEWS_PROFILE) picks the profile; "default" otherwise.',
  subcommands: [
    {
      name: 'set',
      summary: 'set a setting in the current profile',
      args: [
        { name: 'key', description: CONFIG_KEYS.join('|') },
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
      name: 'get',
      summary: 'print a setting of the current profile (the key redacted)',
      args: [{ name: 'key', description: CONFIG_KEYS.join('|') }],
      examples: ['news config get format', 'news config get api-key --profile work'],
      async run(input, runtime) {
        const key = keyArg(input.args[0]);
        const config = await readConfig(runtime.settings.configPath);
        const value = config.profiles[runtime.settings.profile]?.[key];
        if (value === undefined) {
          throw new UsageError(`"${key}" is not set in profile "${runtime.settings.profile}"`);
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
        const config = await readConfig(path);
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
  ],
};
