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
