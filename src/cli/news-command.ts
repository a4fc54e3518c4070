/**
 * commander's Command as `news` wants it: our "did you mean" (prefixes
 * first), a typo'd subcommand named as such (also before --help), a flag of
 * another command said to do nothing here, and options found by an index.
 * What needs commander's private methods goes through commander-internals.ts.
 */
import { Command, Option } from 'commander';
import { hidden } from './command-meta.js';
import { findCommand, installPrivateHooks } from './commander-internals.js';
import { GLOBAL_OPTIONS } from './settings/global-options.js';
import { isPureGroup } from './help/format.js';
import { closestByPrefix, suggestionHint } from '../output/closest-name.js';

/**
 * The `hint:` line of a parse error we raised, kept beside the error rather
 * than written into its message, so that nothing reads our own words back.
 */
const HINTS = new WeakMap<object, string>();

/** The hint NewsCommand attached to a commander error; undefined for commander's own errors. */
export function hintOf(error: object): string | undefined {
  return HINTS.get(error);
}

/** Commander with our "did you mean" (prefixes first) and a typo'd subcommand named as such. */
export class NewsCommand extends Command {
  override createCommand(name?: string): Command {
    return new NewsCommand(name);
  }

  /** commander's `error` (which throws, every command having exitOverride), with a hint attached. */
  private fail(message: string, code: string, hint: string | undefined): never {
    try {
      this.error(message, { code });
    } catch (error) {
      if (hint !== undefined && typeof error === 'object' && error !== null) HINTS.set(error, hint);
      throw error;
    }
  }

  unknownOption(flag: string): never {
    const name = flag.split('=')[0] ?? flag;
    // A global option, or a flag of a parent command (stream's filters after
    // `stream sessions`): it exists, but not here.
    const named = (o: Option) => o.long === name || o.short === name;
    const elsewhere =
      GLOBAL_OPTIONS.some((o) => named(new Option(o.flags))) ||
      ancestors(this).some((c) => c.options.some(named));
    if (elsewhere)
      this.fail(
        `error: ${doesNothing(name, this)}`,
        'commander.unknownOption',
        seeHelp(commandPath(this)),
      );
    const flags = this.options.filter((o) => !o.hidden && o.long).map((o) => o.long as string);
    this.fail(
      `error: unknown option '${flag}'`,
      'commander.unknownOption',
      suggestionHint(closestByPrefix(name, flags)),
    );
  }

  unknownCommand(): never {
    const name = this.args[0] ?? '';
    const names = this.commands.filter((c) => !hidden(c)).map((c) => c.name());
    const where = this.parent ? ` for 'news ${this.name()}'` : '';
    this.fail(
      `error: unknown command '${name}'${where}`,
      'commander.unknownCommand',
      suggestionHint(closestByPrefix(name, names, 1)),
    );
  }
}

/**
 * commander finds an option by scanning its list, for every option added
 * (its conflict check) and every flag parsed: search's ~190 flags made
 * that ~40,000 comparisons a start. Options are only ever appended, so an
 * index by flag, extended as the list grows, gives the same answer (the
 * first option with the flag).
 */
const FLAG_INDEX = new WeakMap<Command, { map: Map<string, Option>; count: number }>();

installPrivateHooks(NewsCommand, {
  findOption(arg) {
    let index = FLAG_INDEX.get(this);
    if (index === undefined) {
      index = { map: new Map(), count: 0 };
      FLAG_INDEX.set(this, index);
    }
    for (; index.count < this.options.length; index.count++) {
      const option = this.options[index.count] as Option;
      for (const flag of [option.short, option.long])
        if (flag !== undefined && !index.map.has(flag)) index.map.set(flag, option);
    }
    return index.map.get(arg);
  },
  // `news serach --help`, `news webhooks lst -h`: commander shows the parent's
  // help and exits 0; the unknown name is the mistake, said as one (exit 2,
  // with "did you mean").
  beforeHelp() {
    const word = this.args[0];
    if (
      isPureGroup(this) &&
      word !== undefined &&
      !word.startsWith('-') &&
      findCommand(this, word) === undefined
    )
      this.unknownCommand();
  },
  // `people gte`: people takes no arguments but has subcommands, so a stray word is a typo'd one.
  beforeExcessArguments(args) {
    if (this.commands.length > 0 && this.registeredArguments.length === 0 && args[0] !== undefined)
      this.unknownCommand();
  },
});

function ancestors(command: Command): Command[] {
  const out: Command[] = [];
  for (let c = command.parent; c; c = c.parent) out.push(c);
  return out;
}

/** `news webhooks verify` */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return `news ${names.join(' ')}`;
}

/** An option that exists, but not for this command (the hint: `seeHelp`). */
export function doesNothing(flag: string, command: Command): string {
  return `${flag} does nothing for ${commandPath(command)}`;
}

export const seeHelp = (path: string) => `see ${path} --help for the options it takes`;
