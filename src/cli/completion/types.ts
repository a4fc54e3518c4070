/**
 * The data behind `news __complete`: a plain-JSON picture of the command tree,
 * made from the commander program (build-tree.ts) and written to
 * dist/cli/completion/tree.json at build time, so the Tab path reads one JSON
 * file instead of loading the program.
 */
import type { Choice, ValueSource } from '../value-source.js';

export type { Choice, ValueHint, ValueSource } from '../value-source.js';

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
