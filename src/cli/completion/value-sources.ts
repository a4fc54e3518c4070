/**
 * Where the values of each flag come from, derived from the data that declares
 * the flag: the parameter table (enums, lists, id shapes), an OptionSpec's or
 * ArgSpec's `choices`/`complete` (the same constant its handler checks
 * against), a global option's `source` (with `-f` narrowed to the command's
 * CommandSpec.formats), and a `<file>` or `<dir>` placeholder. Never the help
 * text: a list written in a description is not a declaration.
 * program.ts attaches the result to each commander Option or Argument; the
 * completion tree reads it back.
 */
import type { ArgSpec, OptionSpec, ValueHint } from '../command-spec.js';
import type { ParamDef } from '../../params/types.js';
import { categoryChoices, codeChoices } from './fixed-values.js';
import type { Choice, ValueSource } from './types.js';

/** What declared a commander Option or Argument; its values are worked out only when asked. */
export type ValueOrigin =
  | { readonly param: ParamDef }
  | { readonly option: OptionSpec }
  | { readonly arg: ArgSpec }
  | { readonly source: ValueSource };

const origins = new WeakMap<object, ValueOrigin>();

/**
 * Remembers what declared `target`. Cheap on purpose: `news --help` builds the
 * program, and the fixed lists are computed only when a completion tree is made.
 */
export function annotate<T extends object>(target: T, origin: ValueOrigin): T {
  origins.set(target, origin);
  return target;
}

export function sourceOf(target: object): ValueSource | undefined {
  const origin = origins.get(target);
  if (origin === undefined) return undefined;
  if ('param' in origin) return paramSource(origin.param);
  if ('option' in origin) return optionSource(origin.option);
  if ('arg' in origin) return argSource(origin.arg);
  return origin.source;
}

const plain = (values: readonly string[]): Choice[] => values.map((v) => [v, '']);

/** `*.name` entity filters by the kind of entity they name. */
const ENTITY_NAME =
  /(?:^|\.)(person|organization|location|brand|disaster|disease|event|sport)\.name$/;

/** An id-like parameter whose values the cache remembers (`ignore.` forms too). */
const CACHED_IDS = [
  'entity.id',
  'category.id',
  'topic.id',
  'industry.id',
  'source.domain',
  'author.name',
];

let fixedLists: { language: Choice[]; country: Choice[]; categories: Choice[] } | undefined;
function fixed() {
  fixedLists ??= {
    language: codeChoices('language'),
    country: codeChoices('country'),
    categories: categoryChoices(),
  };
  return fixedLists;
}

/** What completes a parameter flag, from its table entry. */
export function paramSource(def: ParamDef): ValueSource | undefined {
  const list = def.list !== undefined && def.list > 1;
  const base = (extra: ValueSource): ValueSource => (list ? { ...extra, list: true } : extra);
  const bare = def.name.replace(/^ignore\./, '');
  if (def.completions) return base({ choices: plain(def.completions) });
  if (def.enum) return base({ choices: plain(def.enum) });
  if (def.type === 'flag')
    return {
      choices: [
        ['1', 'yes'],
        ['0', 'no'],
      ],
    };
  if (bare === 'query') return { hint: 'query' };
  // The lists the client checks the values against: completion offers nothing else.
  if (def.codes !== undefined) return base({ choices: fixed()[def.codes] });
  if (bare === 'category.id')
    return base({ choices: fixed().categories, prefixes: true, hint: 'cache:category.id' });
  const entity = ENTITY_NAME.exec(bare);
  if (entity) return base({ hint: `cache:name.${entity[1]}` });
  if (CACHED_IDS.includes(bare)) return base({ hint: `cache:${bare}` });
  return undefined;
}

function fromHint(hint: ValueHint | undefined, choices: readonly string[] | undefined) {
  if (choices) return { choices: plain(choices), ...(hint ? { hint } : {}) };
  return hint ? { hint } : undefined;
}

/** What completes the value of an option declared in a command spec. */
export function optionSource(option: OptionSpec): ValueSource | undefined {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
  if (placeholder === undefined) return undefined;
  const explicit = fromHint(option.complete, option.choices);
  if (explicit) return explicit;
  // `<file>`, `<dir>`: a path on disk (not `--path <path>`, a URL path).
  if (/^(file|dir)$/i.test(placeholder)) return { hint: 'file' };
  return undefined;
}

/** What completes a positional argument. */
export function argSource(arg: ArgSpec): ValueSource | undefined {
  const explicit = fromHint(arg.complete, arg.choices);
  if (explicit) return explicit;
  if (/^(file|dir)$/i.test(arg.name)) return { hint: 'file' };
  return undefined;
}
