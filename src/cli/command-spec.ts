import type { FormatName } from '../output/types.js';
import type { ParamDef } from '../params/types.js';
import type { RawParam } from '../params/validate.js';
import type { ValueHint } from './value-source.js';
import type { GlobalName } from './settings/global-options.js';
import type { Runtime } from './runtime/runtime.js';

export type { ValueHint };

export interface ArgSpec {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly variadic?: boolean;
  /** The only values this argument takes (shell completion offers them). */
  readonly choices?: readonly string[];
  readonly complete?: ValueHint;
}

export interface OptionSpec {
  /** Commander flags, e.g. `--all` or `--limit <n>`. */
  readonly flags: string;
  readonly description: string;
  readonly default?: string | boolean;
  /** The only values this option takes (shell completion offers them; the handler still checks). */
  readonly choices?: readonly string[];
  readonly complete?: ValueHint;
}

/** The headings of `news --help`; a command without one is listed under "tools". */
export type CommandGroup = 'search' | 'directories' | 'live' | 'account' | 'tools';

/** What a handler receives: its arguments, its own options, and the API parameters the user gave. */
export interface CommandInput {
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, unknown>>;
  /** Parameter flags and `--param` assignments, unvalidated, in the order the table lists them. */
  readonly params: readonly RawParam[];
}

/**
 * A command is plain data; program.ts turns the list into commander.
 * `params` names which parameter definitions become flags of this command.
 */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  /** Where `news --help` lists it (top-level commands only). */
  readonly group?: CommandGroup;
  /** Not listed in help or completion (internal entry points). */
  readonly hidden?: boolean;
  readonly args?: readonly ArgSpec[];
  readonly params?: readonly ParamDef[];
  /** Adds --all and --limit (and `--param`, when `params` is set). */
  readonly paging?: boolean;
  /** Adds --raw: print the untouched response body. */
  readonly raw?: boolean;
  readonly options?: readonly OptionSpec[];
  /** Two or three command lines that work against `--mock`; shown at the end of `--help` (a test runs them). */
  readonly examples?: readonly string[];
  readonly subcommands?: readonly CommandSpec[];
  /**
   * Runs whatever the config file holds (bad values are left out, not fatal):
   * `news config` must be able to repair the file. Inherited by subcommands.
   */
  readonly lenientConfig?: boolean;
  /**
   * The global options this command uses (global-options.ts): the request
   * options, the output options, both (the default) or fewer. -q and -v are
   * always there. A group of subcommands takes what any of them takes.
   */
  readonly globals?: readonly GlobalName[];
  /**
   * The formats -f takes, and -o's extension may name (default: every one);
   * `--help` and shell completion list just these, and any other is refused.
   */
  readonly formats?: readonly FormatName[];
  /**
   * It prints one value (`count`: the number, `ping`: pong); -f or -o asks
   * for a record instead. The profile's `format` setting does not apply.
   */
  readonly valueUnlessAsked?: boolean;
  readonly run?: (input: CommandInput, runtime: Runtime) => Promise<void>;
}
