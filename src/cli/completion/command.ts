import { UsageError } from '../../api/errors.js';
import type { CommandSpec } from '../command-spec.js';
import { INSTALL, SHELLS, type Shell, completionScript } from './scripts.js';

export const completion: CommandSpec = {
  name: 'completion',
  group: 'tools',
  summary: 'print the shell completion script: bash, zsh, fish or powershell',
  description: [
    'Tab then completes commands, subcommands and flags (with descriptions in zsh and fish), enum values, --fields names (after a comma too), --query fields, file paths, fixed ids (language codes, IPTC categories, event types) and names and ids that earlier commands saw (suggest, searches), from a local cache: never the network.',
    'Install:',
    ...SHELLS.map((shell) => `  ${shell}: ${INSTALL[shell]}`),
  ].join('\n'),
  args: [{ name: 'shell', description: SHELLS.join('|'), choices: SHELLS }],
  globals: [],
  examples: [
    'source <(news completion bash)',
    'news completion zsh > _news',
    'news completion fish > news.fish',
  ],
  async run(input, runtime) {
    const shell = input.args[0] ?? '';
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`no completion for shell "${shell}"`, {
        hint: `one of ${SHELLS.join(', ')}`,
      });
    }
    await runtime.write(completionScript(shell as Shell));
  },
};
