/**
 * Answers one completion request: the words after `news` (the last one being
 * the word under the cursor) → candidates and a cobra directive. Pure but for
 * reading the completion cache and the config file's profile names, both
 * local: nothing here touches the network or loads the program.
 */
import { readFileSync } from 'node:fs';
import { configPath } from '../user-dirs.js';
import { cachedValues } from './cache.js';
import {
  type Choice,
  type Completion,
  type CompletionTree,
  DIRECTIVE,
  type TreeCommand,
  type TreeOption,
  type ValueSource,
} from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

const none = (directive: number = DIRECTIVE.noFileComp): Completion => ({ items: [], directive });

/**
 * Options are positional, as the parser reads them: a flag belongs to the
 * command typed last before it, which lists every global option it takes.
 */
function findOption(command: TreeCommand, name: string): TreeOption | undefined {
  return command.options.find((o) => o.names.includes(name));
}

function profileNames(env: Env): Choice[] {
  try {
    const parsed = JSON.parse(readFileSync(configPath(env), 'utf8')) as { profiles?: unknown };
    const profiles = parsed.profiles;
    if (typeof profiles !== 'object' || profiles === null) return [];
    return Object.keys(profiles).map((name) => [name, 'profile']);
  } catch {
    return [];
  }
}

const QUERY_OPERATORS = ['AND', 'OR', 'NOT'];

/** `--query` text: field names (with their `:`) for the last word, values after `field:`. */
function completeQuery(tree: CompletionTree, cur: string): Completion {
  const match = /(^|[\s(){}"'+!-])([A-Za-z_][\w.]*)?(?::([^\s(){}":]*))?$/.exec(cur);
  if (!match) return none();
  const head = cur.slice(0, match.index + (match[1]?.length ?? 0));
  const word = match[2] ?? '';
  const value = match[3];
  if (value !== undefined) {
    const field = tree.queryFields.find((f) => f.name === word);
    const items = (field?.values ?? [])
      .filter((v) => v.startsWith(value))
      .map((v): Choice => [`${head}${word}:${v}`, '']);
    return { items, directive: DIRECTIVE.noSpace | DIRECTIVE.noFileComp };
  }
  const items: Choice[] = [];
  for (const field of tree.queryFields) {
    if (field.name.startsWith(word)) items.push([`${head}${field.name}:`, 'field']);
  }
  for (const op of QUERY_OPERATORS) {
    if (word !== '' && op.startsWith(word)) items.push([`${head}${op} `, 'operator']);
  }
  return { items, directive: DIRECTIVE.noSpace | DIRECTIVE.noFileComp };
}

/** The values of an option or argument that start with what was typed. */
function completeValue(
  tree: CompletionTree,
  source: ValueSource | undefined,
  cur: string,
  env: Env,
): Completion {
  if (source === undefined) return none();
  if (source.hint === 'file') return { items: [], directive: DIRECTIVE.default };
  if (source.hint === 'query') return completeQuery(tree, cur);
  const comma = source.list ? cur.lastIndexOf(',') : -1;
  const head = cur.slice(0, comma + 1);
  const typed = cur.slice(comma + 1);
  const given = new Set(head.split(',').filter(Boolean));
  const pool: Choice[] = [...(source.choices ?? [])];
  if (source.hint === 'fields') pool.push(...tree.fields);
  if (source.hint === 'profile') pool.push(...profileNames(env));
  if (source.hint?.startsWith('cache:')) pool.push(...cachedValues(env, source.hint.slice(6)));
  const lower = typed.toLowerCase();
  const seen = new Set<string>();
  const items: Choice[] = [];
  for (const [value, description] of pool) {
    if (seen.has(value) || given.has(value)) continue;
    if (!value.toLowerCase().startsWith(lower)) continue;
    seen.add(value);
    items.push([`${head}${value}`, description]);
  }
  const open = source.list || (source.prefixes && items.some(([v]) => v.endsWith(':')));
  return {
    items,
    directive: DIRECTIVE.noFileComp | (open ? DIRECTIVE.noSpace : 0),
  };
}

function optionCandidates(command: TreeCommand, cur: string, used: Set<string>): Choice[] {
  const items: Choice[] = [];
  for (const option of command.options) {
    if (!option.repeatable && option.names.some((n) => used.has(n))) continue;
    for (const name of option.names) {
      if (!name.startsWith(cur)) continue;
      // `-` alone offers both spellings; `--x` only long ones.
      if (cur.startsWith('--') && !name.startsWith('--')) continue;
      items.push([name, option.description]);
    }
  }
  return items;
}

/** Completes `words` (after `news`; the last is the word being typed, maybe empty). */
export function complete(tree: CompletionTree, words: readonly string[], env: Env): Completion {
  const cur = words.at(-1) ?? '';
  let command = tree.root;
  let positionals = 0;
  let afterDashes = false;
  let pending: TreeOption | undefined;
  const used = new Set<string>();

  for (const word of words.slice(0, -1)) {
    if (pending) {
      const optional = pending.value === 'optional';
      pending = undefined;
      if (!(optional && word.startsWith('-'))) continue;
    }
    if (!afterDashes && word === '--') {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && word.startsWith('-') && word.length > 1) {
      const eq = word.startsWith('--') ? word.indexOf('=') : -1;
      const option = findOption(command, eq > 0 ? word.slice(0, eq) : word);
      if (option) {
        for (const name of option.names) used.add(name);
        if (option.value !== 'none' && eq < 0) pending = option;
      }
      continue;
    }
    const sub = positionals === 0 ? command.commands.find((c) => c.name === word) : undefined;
    if (sub) {
      command = sub;
      continue;
    }
    positionals += 1;
  }

  if (pending && !(pending.value === 'optional' && cur.startsWith('-'))) {
    return completeValue(tree, pending.values, cur, env);
  }
  if (!afterDashes && cur.startsWith('--') && cur.includes('=')) {
    const eq = cur.indexOf('=');
    const option = findOption(command, cur.slice(0, eq));
    if (!option || option.value === 'none') return none();
    const answer = completeValue(tree, option.values, cur.slice(eq + 1), env);
    const prefix = cur.slice(0, eq + 1);
    return { ...answer, items: answer.items.map(([v, d]) => [`${prefix}${v}`, d]) };
  }
  if (!afterDashes && cur.startsWith('-')) {
    return { items: optionCandidates(command, cur, used), directive: DIRECTIVE.noFileComp };
  }

  const items: Choice[] = [];
  if (positionals === 0) {
    for (const sub of command.commands)
      if (sub.name.startsWith(cur)) items.push([sub.name, sub.description]);
  }
  const args = command.args;
  const last = args.at(-1);
  const arg = positionals < args.length ? args[positionals] : last?.variadic ? last : undefined;
  if (arg?.values) {
    const answer = completeValue(tree, arg.values, cur, env);
    if (items.length === 0) return answer;
    return {
      items: [...items, ...answer.items],
      directive: answer.directive | DIRECTIVE.noFileComp,
    };
  }
  return { items, directive: DIRECTIVE.noFileComp };
}

// C0 and C1 controls, DEL, and the bidi embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** The cobra wire format: one `value<TAB>description` per line, then `:directive`. */
export function formatCompletion(answer: Completion): string {
  // Cached names come from servers: a value holding a control or bidi character
  // (an escape sequence, a line break) is dropped, never printed to the shell.
  const lines = answer.items
    .filter(([value]) => !UNSAFE.test(value))
    .map(([value, description]) =>
      description ? `${value}\t${description.replace(UNSAFE_ALL, '').replace(/\s+/g, ' ')}` : value,
    );
  return `${[...lines, `:${answer.directive}`].join('\n')}\n`;
}
