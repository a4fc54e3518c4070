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
 * Everything is wrapped to the terminal's width (COLUMNS in a pipe, else 80).
 */
import type { Command, Help, Option } from 'commander';
import type { CommandGroup } from '../command-spec.js';
import { isGlobalOption } from '../global-options.js';

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

/** A word longer than the width, cut after its `|` or `,` where it can be, else anywhere. */
function pieces(word: string, width: number): string[] {
  if (word.length <= width) return [word];
  const out: string[] = [];
  let rest = word;
  while (rest.length > width) {
    const cut = Math.max(rest.lastIndexOf('|', width - 1), rest.lastIndexOf(',', width - 1));
    const at = cut > 0 ? cut + 1 : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  return [...out, rest];
}

/** Greedy word wrap to `width` columns. */
export function wrap(text: string, width: number): string[] {
  return text.split('\n').flatMap((paragraph) =>
    fill(
      paragraph.split(/ +/).flatMap((w) => pieces(w, width)),
      width,
    ),
  );
}

/** Shell words: a space inside `'…'` or `"…"` does not split. */
function shellWords(text: string): string[] {
  return text.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+|['"]\S*/g) ?? [];
}

/**
 * An example command that pastes as it reads: wrapped only between shell
 * words, each line but the last ending in ` \` (a line continuation), and
 * before a flag or a pipe where it can be, so a flag keeps its value (`-f
 * csv`); a flag whose value is too long for a line is broken between its
 * words, never inside quotes. A word longer than a line stays whole.
 */
export function wrapExample(text: string, width: number): string[] {
  const units: string[][] = [];
  for (const word of shellWords(text)) {
    const last = units[units.length - 1];
    if (last !== undefined && !/^[-|]/.test(word)) last.push(word);
    else units.push([word]);
  }
  // Two columns kept for the continuation.
  const room = width - 2;
  const lines = fill(
    units.flatMap((u) => (u.join(' ').length <= room ? [u.join(' ')] : u)),
    room,
  );
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line));
}

/** Lines of whole pieces, each line at most `width` columns when the pieces allow. */
function fill(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

/** Two columns: terms, then descriptions wrapped beside them (or below, when narrow). */
export function formatItems(rows: readonly (readonly [string, string])[], width: number): string[] {
  if (rows.length === 0) return [];
  const termWidth = Math.min(30, Math.max(...rows.map(([t]) => t.length)));
  let column = 2 + termWidth + 2;
  if (width - column < 24) column = 6;
  const out: string[] = [];
  for (const [term, description] of rows) {
    const lines = description ? wrap(description, Math.max(20, width - column)) : [];
    const pad = ' '.repeat(column);
    if (column === 6 || term.length > termWidth) {
      out.push(`  ${term}`);
      out.push(...lines.map((l) => pad + l));
    } else {
      out.push(`  ${term.padEnd(termWidth)}  ${lines[0] ?? ''}`.trimEnd());
      out.push(...lines.slice(1).map((l) => pad + l));
    }
  }
  return out;
}

/** Terms in one wrapped paragraph: the short form of a list of flags. */
function paragraph(terms: readonly string[], width: number, indent = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const term of terms) {
    if (line !== '' && indent.length + line.length + 2 + term.length > width) {
      lines.push(indent + line);
      line = term;
    } else line = line === '' ? term : `${line}  ${term}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [title, ...lines, ''];
}

function examples(list: readonly string[], width: number): string[] {
  return section(
    'Examples:',
    list.flatMap((e) =>
      // Continuation lines are indented 6, less for a long quoted word (the shell ignores it).
      wrapExample(`$ ${e}`, width - 6).map((l, i) =>
        i === 0 ? `  ${l}` : `${' '.repeat(Math.max(2, Math.min(6, width - l.length)))}${l}`,
      ),
    ),
  );
}

function rootHelp(program: Command, helper: Help, context: HelpContext, width: number): string[] {
  const groups = new Map<CommandGroup, string[]>();
  for (const key of Object.keys(GROUP_TITLES) as CommandGroup[]) groups.set(key, []);
  for (const command of program.commands) {
    if (context.hidden(command)) continue;
    groups.get(groupFor(command, context))?.push(command.name());
  }
  const titleWidth = Math.max(...Object.values(GROUP_TITLES).map((t) => t.length));
  const commandLines: string[] = [];
  for (const [group, names] of groups) {
    if (names.length === 0) continue;
    const body = paragraph(names, width - titleWidth - 4, '');
    commandLines.push(`  ${GROUP_TITLES[group].padEnd(titleWidth)}  ${body[0] ?? ''}`);
    for (const more of body.slice(1)) commandLines.push(`  ${' '.repeat(titleWidth)}  ${more}`);
  }
  const globals = helper.visibleOptions(program).map((o) => o.flags);
  return [
    `Usage: ${helper.commandUsage(program)}`,
    '',
    ...wrap(helper.commandDescription(program), width),
    '',
    ...section('Commands:', commandLines),
    ...section(
      'Global options (each command takes those it uses: news COMMAND --help):',
      paragraph(globals, width),
    ),
    ...examples(context.examplesOf(program), width),
    ...wrap(
      'More: news help COMMAND; news help commands|exit-codes|environment|formats|query',
      width,
    ),
  ];
}

function optionRows(options: readonly Option[], helper: Help): [string, string][] {
  return options.map((o) => [helper.optionTerm(o), helper.optionDescription(o)]);
}

function commandHelp(
  command: Command,
  helper: Help,
  context: HelpContext,
  width: number,
): string[] {
  // Each command has the global options it takes among its own (global-options.ts);
  // a parent's flags (stream's filters above `stream sessions`) are not its subcommands'.
  const own = helper.visibleOptions(command);
  const globals = own.filter(isGlobalOption);
  const pureGroup = isPureGroup(command);
  const usage = pureGroup
    ? `${helper.commandUsage(command).replace(/ \[options\] \[command\]$/, '')} <command> [options]`
    : helper.commandUsage(command);
  const lines: string[] = [`Usage: ${usage}`, ''];
  const description = helper.commandDescription(command);
  const summary = command.summary();
  if (summary && summary !== description) lines.push(...wrap(summary, width), '');
  lines.push(...wrap(description, width), '');
  lines.push(
    ...section(
      'Arguments:',
      formatItems(
        helper
          .visibleArguments(command)
          .map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)]),
        width,
      ),
    ),
  );
  const subcommands = command.commands
    .filter((c) => !context.hidden(c))
    .map((c): [string, string] => [helper.subcommandTerm(c), c.summary() || c.description()]);

  if (pureGroup) {
    const own = context.examplesOf(command);
    const fromSubs = command.commands.flatMap((c) => context.examplesOf(c).slice(0, 1));
    lines.push(...section('Commands:', formatItems(subcommands, width)));
    lines.push(...examples(own.length > 0 ? own : fromSubs.slice(0, 3), width));
    lines.push(
      ...wrap(
        `Options: -h, --help. Each command's own and global options: news ${command.name()} COMMAND --help`,
        width,
      ),
    );
    return lines;
  }

  const isCommon = (o: Option) => o.long !== undefined && COMMON.includes(o.long);
  const common = own
    .filter(isCommon)
    .sort((a, b) => COMMON.indexOf(a.long ?? '') - COMMON.indexOf(b.long ?? ''));
  lines.push(...section('Common options:', formatItems(optionRows(common, helper), width)));
  lines.push(...examples(context.examplesOf(command), width));
  const byGroup = new Map<string, Option[]>();
  for (const option of own) {
    if (isCommon(option) || isGlobalOption(option) || option.long === '--help') continue;
    const heading = option.helpGroupHeading ?? 'Options:';
    byGroup.set(heading, [...(byGroup.get(heading) ?? []), option]);
  }
  for (const [heading, options] of byGroup) {
    lines.push(...section(heading, formatItems(optionRows(options, helper), width)));
  }
  lines.push(...section('Commands:', formatItems(subcommands, width)));
  const rest = globals.filter((o) => !isCommon(o)).map((o) => o.flags);
  lines.push(...section('Global options:', paragraph([...rest, '-h, --help'], width)));
  return lines;
}

/** commander's `formatHelp` hook. */
export function formatCommandHelp(command: Command, helper: Help, context: HelpContext): string {
  const width = Math.max(40, helper.helpWidth ?? 80);
  const lines = command.parent
    ? commandHelp(command, helper, context, width)
    : rootHelp(command, helper, context, width);
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
