/**
 * Every use of commander's private methods, in one place. NewsCommand
 * (news-command.ts) changes three behaviours commander has no public hook
 * for, and asks it one question it has no public method for:
 *
 * - `_findOption(flag)`: commander scans its option list for every flag
 *   parsed and every option added; ours answers from an index.
 * - `_outputHelpIfRequested(args)`: runs before `--help` is shown; ours
 *   first refuses a typo'd subcommand (`news serach --help`).
 * - `_excessArguments(args)`: runs when a command got more arguments than
 *   it declares; ours first names a typo'd subcommand (`news people gte`).
 * - `_findCommand(name)`: a subcommand by name or alias.
 *
 * None of this is commander's public API, so its version is pinned exactly
 * in package.json and test/cli/commander-internals.test.ts fails the day an
 * upgrade renames one, changes its arity or stops calling it where we rely
 * on it.
 */
import { Command, type Option } from 'commander';

/** The version these internals were read from (package.json pins it exactly). */
export const COMMANDER_VERSION = '14.0.3';

/** The private methods used here, and how many arguments each takes. */
export const PRIVATE_METHODS = {
  _findOption: 1,
  _findCommand: 1,
  _outputHelpIfRequested: 1,
  _excessArguments: 1,
} as const;

/** A method, as stored on a prototype (the real signatures are cast where each is used). */
type Method = object;
const commander = Command.prototype as unknown as Record<keyof typeof PRIVATE_METHODS, Method>;

/** A subcommand of `command` by name or alias, as commander finds it when parsing. */
export function findCommand(command: Command, name: string): Command | undefined {
  return (commander._findCommand as (this: Command, name: string) => Command | undefined).call(
    command,
    name,
  );
}

export interface PrivateHooks<C extends Command> {
  /** Replaces commander's option lookup: the first option with this short or long flag. */
  findOption(this: C, flag: string): Option | undefined;
  /** Runs before commander's handling of `--help` (which shows the help and exits 0). */
  beforeHelp(this: C, args: string[]): void;
  /** Runs before commander's "too many arguments" error. */
  beforeExcessArguments(this: C, args: string[]): void;
}

/** Installs the hooks on `subclass`'s prototype (commander's own methods stay as they are). */
export function installPrivateHooks<C extends Command>(
  subclass: abstract new (...args: never[]) => C,
  hooks: PrivateHooks<C>,
): void {
  const own = subclass.prototype as unknown as Record<keyof typeof PRIVATE_METHODS, Method>;
  type Step = (this: C, args: string[]) => void;
  const outputHelpIfRequested = commander._outputHelpIfRequested as Step;
  const excessArguments = commander._excessArguments as Step;
  own._findOption = hooks.findOption;
  own._outputHelpIfRequested = function (this: C, args: string[]) {
    hooks.beforeHelp.call(this, args);
    outputHelpIfRequested.call(this, args);
  };
  own._excessArguments = function (this: C, args: string[]) {
    hooks.beforeExcessArguments.call(this, args);
    excessArguments.call(this, args);
  };
}
