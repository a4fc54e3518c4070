/**
 * The layout of every `--help`: what a new user needs first comes first.
 * - `news --help`: the commands in five groups, one line a group, then the
 *   global options as one wrapped paragraph, examples, and where to read more
 *   (fits 80×24).
 * - a command: usage, description, arguments, the common flags (format,
 *   output, fields, paging, dry run) it takes, its examples, then its own
 *   flags by group, and the other global options it takes as one paragraph.
 * - a group of subcommands (`suggest`, `config`): its commands and examples;
 *   each command's help shows the global options it takes.
 * Everything is wrapped to the terminal's width (COLUMNS in a pipe, else 80)
 * by layout.ts. Here, what each help says, read off the commander command as
 * a help model: commander's hook lays it out at once, and the build writes
 * it to dist/ for bin/news.js (write-model.ts, fast.ts), so both print the same.
 */
import type { Command, Help, Option } from 'commander';
import type { CommandGroup } from '../command-spec.js';
import { DATABASE_ONLY, isGlobalOption } from '../settings/global-options.js';
import { type HelpBlock, type HelpModel, type Row, layoutHelp } from './layout.js';

export interface HelpContext {
  readonly examplesOf: (command: Command) => readonly string[];
  readonly groupOf: (command: Command) => CommandGroup | undefined;
  readonly hidden: (command: Command) => boolean;
}

export const GROUP_TITLES: Readonly<Record<CommandGroup, string>> = {
  search: 'search & count',
  directories: 'directories',
  live: 'live',
  account: 'account',
  tools: 'tools',
};

/** The flags most runs use, shown first on every command that has them. */
const COMMON = ['--format', '--output', '--fields', '--all', '--limit', '--dry-run', '--mock'];

/** A group of subcommands that runs nothing itself (`suggest`, `config`). */
export function isPureGroup(command: Command): boolean {
  return (
    command.commands.length > 0 &&
    !(command as unknown as { _actionHandler?: unknown })._actionHandler
  );
}

export function groupFor(command: Command, context: HelpContext): CommandGroup {
  return context.groupOf(command) ?? 'tools';
}

/** The usage line, then the summary when it says something the description does not, then the description. */
function heading(usage: string, summary: string, description: string): HelpBlock[] {
  return [
    { line: `Usage: ${usage}` },
    ...(summary && summary !== description ? [{ text: summary }] : []),
    { text: description },
  ];
}

function rootModel(program: Command, helper: Help, context: HelpContext): HelpModel {
  const groups = new Map<CommandGroup, string[]>();
  for (const key of Object.keys(GROUP_TITLES) as CommandGroup[]) groups.set(key, []);
  for (const command of program.commands) {
    if (context.hidden(command)) continue;
    groups.get(groupFor(command, context))?.push(command.name());
  }
  return [
    { line: `Usage: ${helper.commandUsage(program)}` },
    { text: helper.commandDescription(program) },
    {
      title: 'Commands:',
      groups: [...groups].map(([group, names]) => [GROUP_TITLES[group], names] as const),
    },
    {
      title: 'Global options (each command takes those it uses: news COMMAND --help):',
      // The database-only ones are in the help of each command that writes records.
      terms: helper
        .visibleOptions(program)
        .filter((o) => !DATABASE_ONLY.has(o.long ?? ''))
        .map((o) => o.flags),
    },
    { title: 'Examples:', examples: context.examplesOf(program) },
    { text: 'More: news help COMMAND; news help commands|exit-codes|environment|formats|query' },
  ];
}

function optionRows(options: readonly Option[], helper: Help): Row[] {
  return options.map((o) => [helper.optionTerm(o), helper.optionDescription(o)]);
}

function commandModel(command: Command, helper: Help, context: HelpContext): HelpModel {
  // Each command has the global options it takes among its own (global-options.ts);
  // a parent's flags (stream's filters above `stream sessions`) are not its subcommands'.
  const own = helper.visibleOptions(command);
  const globals = own.filter(isGlobalOption);
  const pureGroup = isPureGroup(command);
  const usage = pureGroup
    ? `${helper.commandUsage(command).replace(/ \[options\] \[command\]$/, '')} <command> [options]`
    : helper.commandUsage(command);
  const blocks: HelpBlock[] = [
    ...heading(usage, command.summary(), helper.commandDescription(command)),
    {
      title: 'Arguments:',
      rows: helper
        .visibleArguments(command)
        .map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)]),
    },
  ];
  const subcommands = command.commands
    .filter((c) => !context.hidden(c))
    .map((c): Row => [helper.subcommandTerm(c), c.summary() || c.description()]);

  if (pureGroup) {
    const own = context.examplesOf(command);
    const fromSubs = command.commands.flatMap((c) => context.examplesOf(c).slice(0, 1));
    blocks.push(
      { title: 'Commands:', rows: subcommands },
      { title: 'Examples:', examples: own.length > 0 ? own : fromSubs.slice(0, 3) },
      {
        text: `Options: -h, --help. Each command's own and global options: news ${command.name()} COMMAND --help`,
      },
    );
    return blocks;
  }

  const isCommon = (o: Option) => o.long !== undefined && COMMON.includes(o.long);
  const common = own
    .filter(isCommon)
    .sort((a, b) => COMMON.indexOf(a.long ?? '') - COMMON.indexOf(b.long ?? ''));
  blocks.push(
    { title: 'Common options:', rows: optionRows(common, helper) },
    { title: 'Examples:', examples: context.examplesOf(command) },
  );
  const byGroup = new Map<string, Option[]>();
  for (const option of own) {
    if (isCommon(option) || isGlobalOption(option) || option.long === '--help') continue;
    const heading = option.helpGroupHeading ?? 'Options:';
    byGroup.set(heading, [...(byGroup.get(heading) ?? []), option]);
  }
  for (const [heading, options] of byGroup)
    blocks.push({ title: heading, rows: optionRows(options, helper) });
  const rest = globals.filter((o) => !isCommon(o)).map((o) => o.flags);
  blocks.push(
    { title: 'Commands:', rows: subcommands },
    { title: 'Global options:', terms: [...rest, '-h, --help'] },
  );
  return blocks;
}

/** What `command --help` says, as plain data (layout.ts lays it out). */
export function helpModel(command: Command, helper: Help, context: HelpContext): HelpModel {
  return command.parent
    ? commandModel(command, helper, context)
    : rootModel(command, helper, context);
}

/** commander's `formatHelp` hook. */
export function formatCommandHelp(command: Command, helper: Help, context: HelpContext): string {
  return layoutHelp(helpModel(command, helper, context), helper.helpWidth ?? 80);
}

/** Every command's help model by its path (`news --help`'s is []), hidden ones too: for the build. */
export function helpModels(program: Command, context: HelpContext): [string[], HelpModel][] {
  const out: [string[], HelpModel][] = [];
  const walk = (command: Command, path: string[]) => {
    out.push([path, helpModel(command, command.createHelp(), context)]);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}
