import { Argument, type Command, Option } from 'commander';
import { UsageError } from '../../api/errors.js';
import { META, hidden } from '../command-meta.js';
import { annotate } from '../completion/value-sources.js';
import { GLOBAL_OPTIONS } from '../settings/global-options.js';
import { closestByPrefix } from '../../output/closest-name.js';

/** `news help [COMMAND…|TOPIC]`: a command's help, or one of the topics (help/topics.ts). */
export function addHelpCommand(program: Command, writeOut: (s: string) => void): void {
  const examples = ['news help search', 'news help people get', 'news help exit-codes'];
  const help = program
    .command('help')
    .summary('help on a command, or a topic: exit-codes, environment, formats, query, commands')
    .description(
      'news help COMMAND [SUBCOMMAND] shows the same text as news COMMAND --help. Topics: exit-codes, environment (variables and config keys), formats (and their columns), query (the query language in brief), commands (every command, one line each).',
    );
  META.set(help, { group: 'tools', examples });
  // `news help search --mock` reads as `news --mock help search`: the global
  // options are taken and ignored, as `gh help` does, and not listed.
  for (const def of GLOBAL_OPTIONS)
    help.addOption(new Option(def.flags, def.description).hideHelp());
  help.addArgument(
    annotate(new Argument('[topic...]', 'a command (and subcommand), or a topic'), {
      source: {
        choices: [
          ...program.commands
            .filter((c) => !hidden(c))
            .map((c): [string, string] => [c.name(), c.summary()]),
          ...(['exit-codes', 'environment', 'formats', 'query', 'commands'] as const).map(
            (t): [string, string] => [t, 'topic'],
          ),
        ],
      },
    }),
  );
  help.action(async (words: string[]) => {
    if (words.length === 0) {
      program.outputHelp();
      return;
    }
    const { helpTopic, TOPICS } = await import('./topics.js');
    const topic = words.length === 1 ? helpTopic(words[0] ?? '', program) : undefined;
    if (topic !== undefined) {
      writeOut(topic);
      return;
    }
    let command: Command = program;
    for (const word of words) {
      const next = command.commands.find((c) => c.name() === word && !hidden(c));
      if (!next) {
        const names = [
          ...command.commands.filter((c) => !hidden(c)).map((c) => c.name()),
          ...(command === program ? TOPICS : []),
        ];
        const found = closestByPrefix(word, names, 1);
        throw new UsageError(`no command or help topic "${words.join(' ')}"`, {
          hint: found.length > 0 ? `did you mean ${found[0]}?` : 'see news help commands',
        });
      }
      command = next;
    }
    command.outputHelp();
  });
}
