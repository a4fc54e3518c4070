/**
 * The completion tree, read off the commander program itself, so completion
 * offers exactly the commands and flags commander accepts, with the values
 * their declarations imply (value-sources.ts).
 */
import type { Argument, Command, Option } from 'commander';
import {
  ARTICLE_COLUMNS,
  COMPANY_COLUMNS,
  JOURNALIST_COLUMNS,
  PERSON_COLUMNS,
} from '../../output/columns.js';
import { queryFields } from '../../params/query/fields.js';
import { sourceOf } from './value-sources.js';
import type { Choice, CompletionTree, TreeArg, TreeCommand, TreeOption } from './types.js';

/** Commander keeps these private; completion must skip hidden commands and options too. */
interface Internals {
  _hidden?: boolean;
  _helpOption?: Option | null;
}

function treeOption(option: Option): TreeOption {
  const names = [option.short, option.long].filter((n): n is string => typeof n === 'string');
  const values = sourceOf(option);
  const repeatable = (option as Option & { parseArg?: unknown }).parseArg !== undefined;
  return {
    names,
    description: option.description,
    value: option.required ? 'required' : option.optional ? 'optional' : 'none',
    ...(repeatable ? { repeatable: true } : {}),
    ...(values ? { values } : {}),
  };
}

function treeArg(arg: Argument): TreeArg {
  const values = sourceOf(arg);
  return {
    name: arg.name(),
    description: arg.description,
    variadic: arg.variadic,
    ...(values ? { values } : {}),
  };
}

const HELP: TreeOption = { names: ['-h', '--help'], description: 'show help', value: 'none' };

function treeCommand(command: Command): TreeCommand {
  return {
    name: command.name(),
    description: command.summary() || command.description(),
    options: [...command.options.filter((o) => !o.hidden).map(treeOption), HELP],
    args: command.registeredArguments.map(treeArg),
    commands: command.commands
      .filter((c) => (c as unknown as Internals)._hidden !== true)
      .map(treeCommand),
  };
}

function fieldChoices(): Choice[] {
  const seen = new Set<string>();
  const out: Choice[] = [];
  for (const column of [
    ...ARTICLE_COLUMNS,
    ...PERSON_COLUMNS,
    ...COMPANY_COLUMNS,
    ...JOURNALIST_COLUMNS,
  ]) {
    if (seen.has(column.name)) continue;
    seen.add(column.name);
    out.push([column.name, column.type]);
  }
  return out;
}

export function buildCompletionTree(program: Command): CompletionTree {
  return {
    root: treeCommand(program),
    fields: fieldChoices(),
    queryFields: queryFields().map((f) => ({
      name: f.name,
      ...(f.values && f.values.length > 0 ? { values: [...f.values] } : {}),
    })),
  };
}
