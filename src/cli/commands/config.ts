import { checkApiKey } from '../../api/api-key.js';
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
  // A key is trimmed and checked as the client will check it, so a pasted line
  // end or a control character is refused now, not at the first request.
  const value = key === 'api-key' ? checkApiKey(args[1]) : args[1];
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
        'news config set api-key api_live_… --profile work',
        'news config set format jsonl',
      ],
      run: (input, runtime) => set(input.args, runtime),
    },
    {
      name: 'get',
      summary: 'print a setting of the current profile (the key redacted)',
      args: [{ name: 'key', description: CONFIG_KEYS.join('|') }],
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
