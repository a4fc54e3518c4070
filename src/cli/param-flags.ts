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

function option(def: ParamDef): Option {
  const flag = `--${flagName(def.name)}`;
  // A bare `--has-image` means 1; `--has-image 0` is also accepted.
  const spec =
    def.type === 'flag' ? `${flag} [0|1]` : `${flag} <${def.type === 'date' ? 'date' : 'value'}>`;
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
  for (const def of defs) {
    const opt = option(def);
    command.addOption(opt);
    bindings.push({ def, key: opt.attributeName(), label: `--${flagName(def.name)}` });
  }
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
