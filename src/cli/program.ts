import { Argument, type Command, type CommanderError, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import { flagName } from '../params/registry.js';
import type { CommandInput, CommandSpec } from './command-spec.js';
import { annotate } from './completion/value-sources.js';
import { type HelpContext, formatCommandHelp } from './help/format.js';
import { NewsCommand, commandPath, doesNothing, hintOf, seeHelp } from './news-command.js';
import { addParamOptions, parseParamAssignments } from './param-flags.js';
import type { Runtime } from './runtime/runtime.js';
import { META, examplesOf, groupOf, hidden } from './command-meta.js';
import { addHelpCommand } from './help/help-command.js';
import {
  DEFAULT_GLOBALS,
  GLOBAL_GROUP,
  GLOBAL_OPTIONS,
  isGlobalOption,
  type GlobalName,
  type GlobalOptionDef,
  PAGING,
  formatOption,
  globalsOf,
} from './settings/global-options.js';
import { formatFromPath } from '../output/formats.js';
import type { FormatName } from '../output/types.js';
import { VERSION } from './version.js';

/** Called with the parsed global flags and a handler; main.ts owns the runtime's lifetime. */
export type Launch = (
  globals: Record<string, unknown>,
  handler: (runtime: Runtime) => Promise<void>,
  options: LaunchOptions,
) => Promise<void>;

export interface LaunchOptions {
  readonly lenientConfig?: boolean;
  /** The global options the command takes: settings read and check only these. */
  readonly globals: readonly GlobalName[];
}

/**
 * The options of `defs`, under "Global options:", with what completion offers
 * for their values; -f lists the command's formats when it takes fewer.
 */
function addGlobals(
  command: Command,
  defs: readonly GlobalOptionDef[],
  formats?: readonly FormatName[],
): void {
  for (const given of defs) {
    const def = given.name === 'format' && formats ? formatOption(formats) : given;
    const option = new Option(def.flags, def.description).helpGroup(GLOBAL_GROUP);
    command.addOption(def.source ? annotate(option, { source: def.source }) : option);
  }
}

/**
 * -f or -o's extension naming a format the command does not write: refused
 * before anything is sent (`news count -f rss`: one count is no feed).
 */
function checkFormat(
  command: Command,
  formats: readonly FormatName[],
  globals: Record<string, unknown>,
): void {
  const { format: flag, output } = globals;
  const [format, from] =
    typeof flag === 'string'
      ? [flag, '']
      : typeof output === 'string' && output !== '-'
        ? [formatFromPath(output), ` (the format of ${output})`]
        : [undefined, ''];
  if (format === undefined || (formats as readonly string[]).includes(format)) return;
  throw new UsageError(`${commandPath(command)} does not write ${format}${from}`, {
    hint: `-f takes ${formats.join(', ')}`,
  });
}

/**
 * What a command takes: its own list, else its group's (`config`'s
 * subcommands), else the default, and `--concurrency` when it pages; a group
 * that declares none takes what any of its subcommands takes, so
 * `news webhooks --mock list` still parses.
 */
function globalsTaken(spec: CommandSpec, inherited?: readonly GlobalName[]): GlobalName[] {
  const declared = spec.globals ?? inherited;
  if (spec.run === undefined && spec.subcommands !== undefined && declared === undefined) {
    const all = new Set(spec.subcommands.flatMap((sub) => globalsTaken(sub)));
    return globalsOf([...all]).map((d) => d.name);
  }
  const paged = spec.paging === true ? PAGING : [];
  return globalsOf([...(declared ?? DEFAULT_GLOBALS), ...paged]).map((d) => d.name);
}

/**
 * The options of the running command, with what was given before it: a
 * global option before the command name (`news --mock search`) counts when
 * the command takes it; an option it does not take (`news --mock convert`,
 * `news stream --language-code en sessions`) is refused, naming the flag.
 * (After the command name, commander refuses an unknown option itself.)
 */
function optionsWithAncestors(self: Command): Record<string, unknown> {
  const merged = { ...self.opts<Record<string, unknown>>() };
  const own = new Set(self.options.map((o) => o.long));
  for (let ancestor = self.parent; ancestor; ancestor = ancestor.parent) {
    for (const option of ancestor.options) {
      const key = option.attributeName();
      if (ancestor.getOptionValueSource(key) !== 'cli') continue;
      if (!own.has(option.long)) {
        throw new UsageError(doesNothing(option.long ?? key, self), {
          hint: seeHelp(commandPath(self)),
        });
      }
      if (self.getOptionValueSource(key) !== 'cli') merged[key] = ancestor.getOptionValue(key);
    }
  }
  return merged;
}

function buildCommand(
  parent: Command,
  spec: CommandSpec,
  launch: Launch,
  inheritedLenient = false,
  inheritedGlobals?: readonly GlobalName[],
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
  // A map, not a search per parameter: search has ~160 of them, on every start.
  const byFlag = new Map(command.options.map((o) => [o.long, o]));
  for (const def of spec.params ?? []) {
    const option = byFlag.get(`--${flagName(def.name)}`);
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
  const globals = globalsTaken(spec, inheritedGlobals);
  addGlobals(command, globalsOf(globals), spec.formats);
  for (const sub of spec.subcommands ?? [])
    buildCommand(command, sub, launch, lenientConfig, spec.globals ?? inheritedGlobals);
  const run = spec.run;
  if (run) {
    command.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      // The handler gets its own options; the global ones become settings (main.ts).
      const all = optionsWithAncestors(self);
      const isGlobal = new Set(self.options.filter(isGlobalOption).map((o) => o.attributeName()));
      const options: Record<string, unknown> = {};
      const globalValues: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(all))
        (isGlobal.has(key) ? globalValues : options)[key] = value;
      const params = [
        ...(readParams ? readParams(options) : []),
        ...parseParamAssignments((options['param'] as string[] | undefined) ?? []),
      ];
      const input: CommandInput = { args: self.processedArgs.flat() as string[], options, params };
      if (spec.formats) checkFormat(self, spec.formats, globalValues);
      // Its value, unless -f or -o asks for a record: a profile's `format` is not read.
      const asked = globalValues['format'] !== undefined || globalValues['output'] !== undefined;
      const used =
        spec.valueUnlessAsked && !asked ? globals.filter((g) => g !== 'format') : globals;
      await launch(globalValues, (runtime) => run(input, runtime), {
        lenientConfig,
        globals: used,
      });
    });
  }
}

/** What help reads of a command that commander does not keep (command-meta.ts). */
export const HELP_CONTEXT: HelpContext = { examplesOf, groupOf, hidden };

/** `news --help` teaches the offline mock first: everything below works without a key. */
const ROOT_EXAMPLES = [
  'news search --title "rate cut" --mock -f table',
  'news count --organization-name "Federal Reserve" --mock',
  'news people --name musk --limit 5 --mock',
];

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
  // Global options go after the command name (`news search --mock`); before it
  // (`news --mock search`) they are accepted when the command takes them.
  // Positional: a parent's flags never swallow its subcommand's.
  program.enablePositionalOptions();
  addGlobals(program, GLOBAL_OPTIONS);
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
        formatHelp: (command, helper) => formatCommandHelp(command, helper, HELP_CONTEXT),
      });
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/** Commander's parse errors as our UsageError: the first line, and NewsCommand's hint when it gave one. */
export function usageErrorFromCommander(error: CommanderError): UsageError {
  const first = error.message.replace(/^error: /, '').split('\n')[0];
  return new UsageError(first ?? error.message, { hint: hintOf(error) ?? 'see --help' });
}

export { examplesOf, groupOf };
