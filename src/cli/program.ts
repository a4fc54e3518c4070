import { Argument, Command, type CommanderError, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import { FORMAT_NAMES } from '../output/formats.js';
import { flagName } from '../params/registry.js';
import type { CommandGroup, CommandInput, CommandSpec } from './command-spec.js';
import { annotate } from './completion/value-sources.js';
import { type HelpContext, formatCommandHelp } from './help/format.js';
import { closest, didYouMean } from './help/suggest.js';
import { addParamOptions, parseParamAssignments } from './param-flags.js';
import type { Runtime } from './runtime.js';
import { AUTH_METHODS } from './settings/settings.js';
import { VERSION } from './version.js';

/** Called with the parsed global flags and a handler; main.ts owns the runtime's lifetime. */
export type Launch = (
  globals: Record<string, unknown>,
  handler: (runtime: Runtime) => Promise<void>,
  options?: { readonly lenientConfig?: boolean },
) => Promise<void>;

/** What help needs to know about a command that commander does not keep. */
interface Meta {
  readonly spec?: CommandSpec;
  readonly group?: CommandGroup;
  readonly examples: readonly string[];
}
const META = new WeakMap<Command, Meta>();

/** Commander with our "did you mean" (prefixes first) and a typo'd subcommand named as such. */
class NewsCommand extends Command {
  override createCommand(name?: string): Command {
    return new NewsCommand(name);
  }

  unknownOption(flag: string): never {
    const flags: string[] = [];
    for (let command: Command | null = this; command; command = command.parent) {
      for (const option of command.options)
        if (!option.hidden && option.long) flags.push(option.long);
    }
    const name = flag.split('=')[0] ?? flag;
    this.error(`error: unknown option '${flag}'${didYouMean(closest(name, flags))}`, {
      code: 'commander.unknownOption',
    });
  }

  unknownCommand(): never {
    const name = this.args[0] ?? '';
    const names = this.commands.filter((c) => !hidden(c)).map((c) => c.name());
    const where = this.parent ? ` for 'news ${this.name()}'` : '';
    this.error(`error: unknown command '${name}'${where}${didYouMean(closest(name, names, 1))}`, {
      code: 'commander.unknownCommand',
    });
  }
}

// `people gte`: people takes no arguments but has subcommands, so a stray word is a typo'd one.
const excess = (Command.prototype as unknown as Record<string, unknown>)['_excessArguments'] as (
  this: Command,
  args: string[],
) => void;
(NewsCommand.prototype as unknown as Record<string, unknown>)['_excessArguments'] = function (
  this: Command,
  args: string[],
) {
  if (this.commands.length > 0 && this.registeredArguments.length === 0 && args[0] !== undefined) {
    const names = this.commands.filter((c) => !hidden(c)).map((c) => c.name());
    this.error(
      `error: unknown command '${args[0]}' for 'news ${this.name()}'${didYouMean(closest(args[0], names, 1))}`,
      { code: 'commander.unknownCommand' },
    );
  }
  excess.call(this, args);
};

function hidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

export function addGlobalOptions(program: Command): void {
  const group = 'Global options:';
  const options = [
    new Option('--api-key <key>', 'API key (env NEWS_API_KEY)'),
    annotate(
      new Option(
        '--auth <method>',
        `how the key is sent: ${AUTH_METHODS.join('|')} (default header)`,
      ),
      { source: { choices: AUTH_METHODS.map((m) => [m, '']) } },
    ),
    new Option(
      '--base-url <url>',
      'API root (env NEWS_API_BASE_URL; default https://api.apitube.io)',
    ),
    new Option('--mock', 'use the built-in mock server with fixture data (env NEWS_API_MOCK=1)'),
    annotate(new Option('--profile <name>', 'config profile to use (env NEWS_PROFILE)'), {
      source: { hint: 'profile' },
    }),
    annotate(new Option('-f, --format <format>', `output format: ${FORMAT_NAMES.join('|')}`), {
      source: { choices: FORMAT_NAMES.map((f) => [f, '']) },
    }),
    annotate(
      new Option(
        '-o, --output <file>',
        'write to FILE atomically (format from the extension); - for stdout',
      ),
      { source: { hint: 'file' } },
    ),
    annotate(
      new Option(
        '--fields <list>',
        'comma-separated dotted fields to keep, in order (id,title,source.domain)',
      ),
      { source: { hint: 'fields', list: true } },
    ),
    new Option(
      '--no-sanitize',
      'keep cells starting with = + - @ as they are in csv, tsv and xlsx',
    ),
    new Option(
      '--dry-run',
      'print the request (key redacted) and the curl equivalent; send nothing',
    ),
    new Option('--timeout <seconds>', 'per-request timeout (default 60)'),
    new Option(
      '--max-response-mb <n>',
      'largest response read, in MB (default 64; also NEWS_MAX_RESPONSE_MB)',
    ),
    new Option('--retries <n>', 'retries on network errors, 408, 429 and 5xx (default 3)'),
    new Option(
      '--concurrency <n>',
      'pages fetched at once by --all/--limit, 1 to 16 (default auto: adapts to the rate limit)',
    ),
    new Option('-q, --quiet', 'only errors and warnings on stderr'),
    new Option('-v, --verbose', 'more on stderr: retries, points, rate limits, stack traces'),
  ];
  for (const option of options) program.addOption(option.helpGroup(group));
}

function buildCommand(
  parent: Command,
  spec: CommandSpec,
  launch: Launch,
  inheritedLenient = false,
): void {
  const lenientConfig = inheritedLenient || spec.lenientConfig === true;
  const command = parent
    .command(spec.name, spec.hidden ? { hidden: true } : {})
    .summary(spec.summary)
    .description(spec.description ?? spec.summary);
  META.set(command, {
    spec,
    ...(spec.group ? { group: spec.group } : {}),
    examples: spec.examples ?? [],
  });
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    const argument = new Argument(
      arg.required === false ? `[${name}]` : `<${name}>`,
      arg.description,
    );
    command.addArgument(annotate(argument, { arg }));
  }
  const readParams = spec.params ? addParamOptions(command, spec.params) : undefined;
  for (const def of spec.params ?? []) {
    const option = command.options.find((o) => o.long === `--${flagName(def.name)}`);
    if (option) annotate(option, { param: def });
  }
  if (spec.params) {
    const names = spec.params.map((d): [string, string] => [`${d.name}=`, d.help]);
    command.addOption(
      annotate(
        new Option('--param <name=value>', 'any parameter under its exact API name (repeatable)')
          .argParser((value: string, previous: string[] | undefined) => [
            ...(previous ?? []),
            value,
          ])
          .helpGroup('Request options:'),
        { source: { choices: names, prefixes: true } },
      ),
    );
  }
  if (spec.paging) {
    command.addOption(new Option('--all', 'fetch every page').helpGroup('Request options:'));
    command.addOption(
      new Option('--limit <n>', 'stop after N records across pages').helpGroup('Request options:'),
    );
  }
  if (spec.raw) {
    command.addOption(
      new Option('--raw', 'print the untouched response body').helpGroup('Request options:'),
    );
  }
  for (const option of spec.options ?? []) {
    const opt = new Option(option.flags, option.description);
    // Beside --param and --raw, not alone under "Options:" after 150 parameter flags.
    if (spec.params) opt.helpGroup('Request options:');
    if (option.default !== undefined) opt.default(option.default);
    command.addOption(annotate(opt, { option }));
  }
  for (const sub of spec.subcommands ?? []) buildCommand(command, sub, launch, lenientConfig);
  const run = spec.run;
  if (run) {
    command.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      const options = withParentOptions(self);
      const params = [
        ...(readParams ? readParams(options) : []),
        ...parseParamAssignments((options['param'] as string[] | undefined) ?? []),
      ];
      const input: CommandInput = { args: self.processedArgs.flat() as string[], options, params };
      await launch(self.optsWithGlobals(), (runtime) => run(input, runtime), { lenientConfig });
    });
  }
}

/**
 * Commander hands a known option to the first command that declares it, so in
 * `journalists articles 7 --per-page 5` the listing parent takes `--per-page`.
 * A subcommand gets back the values of the options it shares with its parent.
 */
function withParentOptions(self: Command): Record<string, unknown> {
  const own = self.opts<Record<string, unknown>>();
  const parent = self.parent;
  if (!parent?.parent) return own;
  const inherited = parent.opts<Record<string, unknown>>();
  const merged = { ...own };
  for (const option of self.options) {
    const key = option.attributeName();
    if (own[key] === undefined && inherited[key] !== undefined) merged[key] = inherited[key];
  }
  return merged;
}

/** `news help [COMMAND…|TOPIC]`: a command's help, or one of the topics (help/topics.ts). */
function addHelpCommand(program: Command, writeOut: (s: string) => void): void {
  const examples = ['news help search', 'news help people get', 'news help exit-codes'];
  const help = program
    .command('help')
    .summary('help on a command, or a topic: exit-codes, environment, formats, query, commands')
    .description(
      'news help COMMAND [SUBCOMMAND] shows the same text as news COMMAND --help. Topics: exit-codes, environment (variables and config keys), formats (and their columns), query (the query language in brief), commands (every command, one line each).',
    );
  META.set(help, { group: 'tools', examples });
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
    const { helpTopic, TOPICS } = await import('./help/topics.js');
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
        const found = closest(word, names, 1);
        throw new UsageError(`no command or help topic "${words.join(' ')}"`, {
          hint: found.length > 0 ? `did you mean ${found[0]}?` : 'see news help commands',
        });
      }
      command = next;
    }
    command.outputHelp();
  });
}

/** `news --help` teaches the offline mock first: everything below works without a key. */
const ROOT_EXAMPLES = [
  'news search --title "rate cut" --mock -f table',
  'news count --organization-name "Federal Reserve" --mock',
  'news people --name musk --limit 5 --mock',
];

/** The examples of a command, for help and for the test that runs them all. */
export function examplesOf(command: Command): readonly string[] {
  return META.get(command)?.examples ?? [];
}

export function groupOf(command: Command): CommandGroup | undefined {
  return META.get(command)?.group;
}

/**
 * The whole commander program, from the command list. Nothing heavy is imported here.
 * `focus` (the first word of argv) builds only that command in full.
 */
export function buildProgram(
  specs: readonly CommandSpec[],
  launch: Launch,
  writeOut: (s: string) => void,
  writeErr: (s: string) => void,
  helpWidth?: number,
  focus?: string,
): Command {
  const program = new NewsCommand('news')
    .description('Query and export news from the news search API (or its built-in mock)')
    .usage('<command> [options]')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .helpCommand(false)
    .exitOverride();
  META.set(program, { examples: ROOT_EXAMPLES });
  addGlobalOptions(program);
  // Start-up: when argv names a command, only that one gets its flags; the
  // others are names and summaries (enough for help and "did you mean").
  const focused = focus !== undefined && specs.some((s) => s.name === focus);
  for (const spec of specs) {
    if (!focused || spec.name === focus) buildCommand(program, spec, launch);
    else {
      const stub = program
        .command(spec.name, spec.hidden ? { hidden: true } : {})
        .summary(spec.summary);
      META.set(stub, { spec, ...(spec.group ? { group: spec.group } : {}), examples: [] });
    }
  }
  addHelpCommand(program, writeOut);
  const context: HelpContext = { examplesOf, groupOf, hidden };
  program.commands.forEach(function inherit(cmd: Command) {
    cmd.exitOverride().showSuggestionAfterError(true).helpOption('-h, --help', 'show help');
    cmd.commands.forEach(inherit);
  });
  const configure = (cmd: Command) => {
    cmd
      .configureOutput({
        writeOut,
        // Commander's own errors become one `error:` line and a `hint:` line.
        writeErr,
        outputError: () => undefined,
        getOutHelpWidth: () => helpWidth ?? 80,
        getErrHelpWidth: () => helpWidth ?? 80,
      })
      .configureHelp({
        formatHelp: (command, helper) => formatCommandHelp(command, helper, context),
      });
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/** Commander's parse errors as our UsageError, with "did you mean" moved to a hint. */
export function usageErrorFromCommander(error: CommanderError): UsageError {
  const [first, ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = rest.join(' ').match(/\(Did you mean (.+)\?\)/);
  const hint = suggestion ? `did you mean ${suggestion[1]}?` : 'see --help';
  return new UsageError(first ?? error.message, { hint });
}
