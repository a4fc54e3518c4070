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

/** What a command's operation answers: the shape the MCP server gives its result. */
export type Returns =
  /** A list of articles (short by default: a few fields, descriptions cut). */
  | 'articles'
  /** A list of other records. */
  | 'records'
  /** One record (a profile, the balance). */
  | 'record'
  /** One number: `matched` is it. */
  | 'count'
  /** A bare answer (`pong`). */
  | 'answer';

/** A command's MCP tool, where it has one (mcp/tools.ts reads this). */
export interface ToolDeclaration {
  /** snake_case; the contract fixes some (search_news, count_news, list_people, …). */
  readonly name: string;
  /** One line for an agent; default: the summary's words before the operation. */
  readonly description?: string;
  /** Every common filter is an argument of its own, not only the first five. */
  readonly allCommonFilters?: boolean;
  /** Takes `count_total` (a count beside the page, for an exact `matched`). */
  readonly countTotal?: boolean;
  /** Its records are large enough that `fields` is offered (lists that page, and articles, always are). */
  readonly fields?: boolean;
  /** The name of a tool that writes what this one returns to a file (export_news). */
  readonly exportAs?: string;
}

/**
 * The service operation a command is: its endpoint and method, what it
 * answers, and its tool. Help shows the operation in the summary (from
 * these fields, by `summaryOf`), the MCP server makes a tool of it.
 */
export interface ApiOperation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path; `ID` stands for the command's id argument. */
  readonly path: string;
  /** Said after the path inside the summary's parentheses (`needs no API key`). */
  readonly note?: string;
  readonly returns: Returns;
  /** Absent: no tool (an operation another tool already serves). */
  readonly tool?: ToolDeclaration;
}

/** The operation as help shows it: `POST /v1/news/everything`, and its note. */
export function operationText(api: ApiOperation): string {
  return `${api.method} ${api.path}${api.note === undefined ? '' : api.note}`;
}

/** A summary naming its operation: what it does, `(METHOD /path)`, then what `after` adds. */
export function summaryOf(what: string, api: ApiOperation, after = ''): string {
  return `${what} (${operationText(api)})${after}`;
}

/** The headings of `news --help`; a command without one is listed under "tools". */
export type CommandGroup = 'search' | 'directories' | 'live' | 'account' | 'tools';

/** What commander hands a handler as its options: camelCased flag names and their values. */
export type OptionValues = Readonly<Record<string, unknown>>;

/** The options of a command whose only own flag its handler reads is --raw. */
export type RawOption = { readonly raw?: boolean };

/**
 * What a handler receives: its arguments, its own options, and the API
 * parameters the user gave. `O` names the options a handler reads, typed
 * (`{ raw?: boolean; section?: string }`), where a command declares them.
 */
export interface CommandInput<O extends OptionValues = OptionValues> {
  readonly args: readonly string[];
  readonly options: O;
  /** Parameter flags and `--param` assignments, unvalidated, in the order the table lists them. */
  readonly params: readonly RawParam[];
}

/**
 * A command is plain data; program.ts turns the list into commander.
 * `params` names which parameter definitions become flags of this command.
 */
export interface CommandSpec<O extends OptionValues = OptionValues> {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  /** Where `news --help` lists it (top-level commands only). */
  readonly group?: CommandGroup;
  /** Not listed in help or completion (internal entry points). */
  readonly hidden?: boolean;
  readonly args?: readonly ArgSpec[];
  /** The service operation it is, when it is one (its summary names it with `summaryOf`). */
  readonly api?: ApiOperation;
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
  /** Declared as a method so that a command with typed options is still a CommandSpec. */
  run?(input: CommandInput<O>, runtime: Runtime): Promise<void>;
}
