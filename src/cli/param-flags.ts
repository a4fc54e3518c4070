import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import { GROUP_TITLES, flagName } from '../params/registry.js';
import type { ParamDef } from '../params/types.js';
import type { RawParam } from '../params/validate.js';

/** The `--help` line of a parameter: its help, then what the table says about its values. */
function describe(def: ParamDef): string {
  const facts: string[] = [];
  if (def.enum && def.enum.length <= 8) facts.push(def.enum.join('|'));
  if (def.list !== undefined) facts.push(`up to ${def.list}, comma-separated`);
  if (def.min !== undefined && def.max !== undefined) facts.push(`${def.min}..${def.max}`);
  else if (def.min !== undefined) facts.push(`${def.exclusiveMin ? '>' : '>='} ${def.min}`);
  if (def.maxLength !== undefined) {
    facts.push(
      def.minLength !== undefined
        ? `${def.minLength}-${def.maxLength} chars`
        : `max ${def.maxLength} chars`,
    );
  }
  if (def.default !== undefined) facts.push(`default ${def.default}`);
  return facts.length > 0 ? `${def.help} (${facts.join('; ')})` : def.help;
}

/** The API's 0/1 kinds: `flag` (`has_image`) and `switch` (`hl`, `trending`). */
const isZeroOne = (def: ParamDef): boolean => def.type === 'flag' || def.type === 'switch';

/** The words a 0/1 flag takes as its value; any other word is not its value. */
const ZERO_ONE_VALUE = /^(0|1|true|false)$/i;

function option(def: ParamDef): Option {
  const flag = `--${flagName(def.name)}`;
  // A bare `--has-image` (or `--trending`) means 1; `--has-image 0` is also accepted.
  const spec = isZeroOne(def)
    ? `${flag} [0|1]`
    : `${flag} <${def.type === 'date' ? 'date' : 'value'}>`;
  // Values are checked by params/values.ts, not commander's choices(), so flags and
  // `--param` give the same messages.
  return new Option(spec, describe(def)).helpGroup(`${GROUP_TITLES[def.group]}:`);
}

/** Adds one option per parameter definition; returns how to read them back. */
export function addParamOptions(
  command: Command,
  defs: readonly ParamDef[],
): (opts: Record<string, unknown>) => RawParam[] {
  const bindings: { def: ParamDef; key: string; label: string }[] = [];
  const zeroOne = new Set<string>();
  for (const def of defs) {
    const opt = option(def);
    command.addOption(opt);
    bindings.push({ def, key: opt.attributeName(), label: `--${flagName(def.name)}` });
    if (isZeroOne(def)) zeroOne.add(`--${flagName(def.name)}`);
  }
  if (zeroOne.size > 0) keepOperandsAfterZeroOne(command, zeroOne);
  return (opts) => {
    const out: RawParam[] = [];
    for (const { def, key, label } of bindings) {
      const raw = opts[key];
      if (raw === undefined) continue;
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') continue;
      out.push({ name: def.name, raw, label });
    }
    return out;
  };
}

/**
 * Commander gives an optional value any next word that is not an option, so
 * `news story --has-image 123` read as has_image=123 and no id. For a command
 * that takes arguments, a 0/1 flag followed by anything but a 0/1 value is the
 * flag alone (`--has-image=1`), and the word stays an argument. A command
 * without arguments keeps commander's reading: `--has-image yes` is then
 * "must be 0 or 1", not "too many arguments".
 */
function keepOperandsAfterZeroOne(command: Command, zeroOne: ReadonlySet<string>): void {
  const parse = command.parseOptions.bind(command);
  command.parseOptions = (args: string[]) => {
    if (command.registeredArguments.length === 0) return parse(args);
    // Options whose next word is theirs, whatever it is (`--title --has-image` is a title).
    const takesNext = new Set(
      command.options.filter((o) => o.required).flatMap((o) => [o.long, o.short]),
    );
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--') {
        out.push(...args.slice(i));
        break;
      }
      if (takesNext.has(arg) && i + 1 < args.length) {
        out.push(arg, args[++i]!);
        continue;
      }
      const next = args[i + 1];
      const bare = next === undefined || next.startsWith('-') || !ZERO_ONE_VALUE.test(next);
      out.push(zeroOne.has(arg) && bare ? `${arg}=1` : arg);
    }
    return parse(out);
  };
}

/** `--param NAME=VALUE`, repeatable: any parameter under its exact API name. */
export function parseParamAssignments(values: readonly string[]): RawParam[] {
  return values.map((assignment) => {
    const eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new UsageError(`--param ${assignment} must be NAME=VALUE`, {
        hint: 'for example --param sort.by=relevance',
      });
    }
    const name = assignment.slice(0, eq).trim();
    return { name, raw: assignment.slice(eq + 1), label: `--param ${name}` };
  });
}
