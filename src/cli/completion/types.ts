/**
 * The data behind `news __complete`: a plain-JSON picture of the command tree,
 * made from the commander program (build-tree.ts) and written to
 * dist/cli/completion/tree.json at build time, so the Tab path reads one JSON
 * file instead of loading the program.
 */
/**
 * What shell completion offers for a value: a file path, `--fields` names,
 * `--query` fields, profile names from the config file, or values remembered
 * in the local completion cache under this key.
 */
export type ValueHint = 'file' | 'fields' | 'query' | 'profile' | `cache:${string}`;

/** A value and its one-line description ('' when there is none). */
export type Choice = readonly [value: string, description: string];

/** Where the values of an option or argument come from. */
export interface ValueSource {
  readonly choices?: readonly Choice[];
  /** A comma-separated list: values are completed after the last comma. */
  readonly list?: boolean;
  /** The choices are prefixes to type on from (`medtop:`): no space after them. */
  readonly prefixes?: boolean;
  readonly hint?: ValueHint;
}

export interface TreeOption {
  /** Every spelling, short first: `['-f', '--format']`. */
  readonly names: readonly string[];
  readonly description: string;
  readonly value: 'none' | 'required' | 'optional';
  /** May be given more than once (`--param`). */
  readonly repeatable?: boolean;
  readonly values?: ValueSource;
}

export interface TreeArg {
  readonly name: string;
  readonly description: string;
  readonly variadic: boolean;
  readonly values?: ValueSource;
}

export interface TreeCommand {
  readonly name: string;
  readonly description: string;
  readonly options: readonly TreeOption[];
  readonly args: readonly TreeArg[];
  readonly commands: readonly TreeCommand[];
}

export interface CompletionTree {
  /** The program: its options are every global option (before a command); each command lists those it takes. */
  readonly root: TreeCommand;
  /** Names `--fields` accepts, with their column type. */
  readonly fields: readonly Choice[];
  /** Fields of the query language, with their fixed values where they have some. */
  readonly queryFields: readonly { readonly name: string; readonly values?: readonly string[] }[];
}

/** Cobra's directives, so the shell scripts read like every cobra-based tool's. */
export const DIRECTIVE = {
  default: 0,
  error: 1,
  noSpace: 2,
  noFileComp: 4,
  filterFileExt: 8,
  filterDirs: 16,
  keepOrder: 32,
} as const;

export interface Completion {
  readonly items: readonly Choice[];
  /** A sum of DIRECTIVE bits. */
  readonly directive: number;
}
