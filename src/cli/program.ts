import { Command, type CommanderError, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import type { CommandInput, CommandSpec } from './command-spec.js';
import { addParamOptions, parseParamAssignments } from './param-flags.js';
import type { Runtime } from './runtime.js';
import { FORMAT_NAMES } from '../output/formats.js';
import { AUTH_METHODS } from './settings.js';
import { VERSION } from './version.js';

/** Called with the parsed global flags and a handler; main.ts owns the runtime's lifetime. */
export type Launch = (
  globals: Record<string, unknown>,
  handler: (runtime: Runtime) => Promise<void>,
  options?: { readonly lenientConfig?: boolean },
) => Promise<void>;

export function addGlobalOptions(program: Command): void {
  const group = 'Global options:';
  const options = [
    new Option('--api-key <key>', 'API key (env NEWS_API_KEY)'),
    new Option(
      '--auth <method>',
      `how the key is sent: ${AUTH_METHODS.join('|')} (default header)`,
    ),
    new Option(
      '--base-url <url>',
      'API root (env NEWS_API_BASE_URL; default https://api.apitube.io)',
    ),
    new Option('--mock', 'use the built-in mock server with fixture data (env NEWS_API_MOCK=1)'),
    new Option('--profile <name>', 'config profile to use (env NEWS_PROFILE)'),
    new Option('-f, --format <format>', `output format: ${FORMAT_NAMES.join('|')}`),
    new Option(
      '-o, --output <file>',
      'write to FILE atomically (format from the extension); - for stdout',
    ),
    new Option(
      '--fields <list>',
      'comma-separated dotted fields to keep, in order (id,title,source.domain)',
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
    .command(spec.name)
    .summary(spec.summary)
    .description(spec.description ?? spec.summary);
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    command.argument(arg.required === false ? `[${name}]` : `<${name}>`, arg.description);
  }
  const readParams = spec.params ? addParamOptions(command, spec.params) : undefined;
  if (spec.params) {
    command.addOption(
      new Option('--param <name=value>', 'any parameter under its exact API name (repeatable)')
        .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
        .helpGroup('Request options:'),
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
    if (option.default !== undefined) opt.default(option.default);
    command.addOption(opt);
  }
  if (spec.examples?.length) {
    command.addHelpText(
      'after',
      `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`,
    );
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

/** The whole commander program, from the command list. Nothing heavy is imported here. */
export function buildProgram(
  specs: readonly CommandSpec[],
  launch: Launch,
  writeOut: (s: string) => void,
  writeErr: (s: string) => void,
): Command {
  const program = new Command('news')
    .description('Query and export news from the news search API (or its built-in mock)')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      writeOut,
      // Commander's own errors become one `error:` line and a `hint:` line.
      writeErr,
      outputError: () => undefined,
    });
  addGlobalOptions(program);
  for (const spec of specs) buildCommand(program, spec, launch);
  program.commands.forEach(function inherit(cmd: Command) {
    cmd
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureOutput({ writeOut, writeErr, outputError: () => undefined });
    cmd.configureHelp({ showGlobalOptions: true });
    cmd.commands.forEach(inherit);
  });
  return program;
}

/** Commander's parse errors as our UsageError, with "did you mean" moved to a hint. */
export function usageErrorFromCommander(error: CommanderError): UsageError {
  const [first, ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = rest.join(' ').match(/\(Did you mean (.+)\?\)/);
  const hint = suggestion ? `did you mean ${suggestion[1]}?` : 'see --help';
  return new UsageError(first ?? error.message, { hint });
}
