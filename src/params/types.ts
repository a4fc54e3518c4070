import type { CodeKind } from './codes.js';

/**
 * One request parameter of the API, declared once as data. Flags, validation,
 * request bodies, the mock's request parsing, completions and the README's
 * parameter reference are all derived from these records.
 */
export type ParamGroup =
  | 'Pagination'
  | 'Text'
  | 'Dates'
  | 'Source'
  | 'Classification'
  | 'Sentiment'
  | 'Media'
  | 'Readability'
  | 'Location'
  | 'Flags'
  | 'Highlighting'
  | 'Facets'
  | 'Output'
  | 'Directory';

/**
 * - `integer`, `number`: sent as JSON numbers.
 * - `flag`: the API's integer 0/1 switches (`has_image`); a bare `--has-image` means 1.
 * - `switch`: the string switches `hl`, `facet`, `facet.range` ('0', '1', 'true', 'false'), sent as '0' or '1'.
 * - `string`: free text, or a comma-separated list when `list` is set.
 * - `date`: YYYY-MM-DD or ISO 8601 date-time; the client also takes relative dates (relative-dates.ts).
 */
export type ParamType = 'integer' | 'number' | 'flag' | 'switch' | 'string' | 'date';

/** Entity kinds whose names must match a known entity exactly (spec: ER0218 to ER0250). */
export type ExactEntityKind = 'location' | 'brand' | 'disaster' | 'disease' | 'event' | 'sport';

/** The code the service answers when such a name matches no known entity. */
export const EXACT_ENTITY_CODES: Readonly<Record<ExactEntityKind, string>> = {
  location: 'ER0218',
  brand: 'ER0222',
  disaster: 'ER0224',
  disease: 'ER0226',
  event: 'ER0228',
  sport: 'ER0250',
};

export interface ParamDef {
  /** The API name, exactly as in the specification (`sentiment.overall.score.min`). */
  readonly name: string;
  readonly group: ParamGroup;
  readonly type: ParamType;
  /** One line for `--help`. */
  readonly help: string;
  /** Numeric bounds (inclusive unless `exclusiveMin`). */
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  /** Length bounds of a string, or of each value of a list. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Allowed values (of each list value, for lists). */
  readonly enum?: readonly string[];
  /** A comma-separated list that takes at most this many values. */
  readonly list?: number;
  /** Each value (or each list value) must match; `patternHint` says what was expected. */
  readonly pattern?: RegExp;
  readonly patternHint?: string;
  /** The error code the specification gives when a value breaks this parameter's constraints. */
  readonly code?: string;
  /** The API's default, shown in help. */
  readonly default?: string | number;
  /** Title-based filter: shares the 31-day window with `query` (ER0110). */
  readonly titleWindow?: boolean;
  /** The server silently drops this filter when it holds a wildcard, so the client refuses it. */
  readonly noWildcard?: boolean;
  /** A name that must match a known entity of this kind exactly (resolved with `--resolve`). */
  readonly exactEntity?: ExactEntityKind;
  /** An entity selector: makes `entity.sentiment.*` meaningful (ER0293). */
  readonly entitySelector?: boolean;
  /** Each value (each list value) must be a code of this list (codes.ts): ISO 639-1 or ISO 3166-1 alpha-2. */
  readonly codes?: CodeKind;
  /** Rewrites each value (each list value) into its canonical form before it is checked and sent. */
  readonly normalize?: (value: string) => string;
  /** Shell-completion values when they differ from `enum` (e.g. list values). */
  readonly completions?: readonly string[];
}

/** A maker of one group's parameter definitions, for the small per-endpoint tables. */
export function paramsOf(
  group: ParamGroup,
): (name: string, type: ParamType, help: string, extra?: Partial<ParamDef>) => ParamDef {
  return (name, type, help, extra = {}) => ({ name, group, type, help, ...extra });
}

/** A value as the user typed it (flag, `--param`, config) before validation. */
export type RawValue = string | number | boolean;

/**
 * Where a request body keeps the relative dates it was given (`-24h`), by API
 * name: a symbol key, so JSON, `Object.keys` and the client never see it, and
 * a spread copy (`{ ...body, page: 2 }`) keeps it. `--state` fingerprints the
 * query with these forms (src/cli/run-state/run-state.ts), so the same cron line
 * is the same query every time it runs.
 */
export const RELATIVE_DATES: unique symbol = Symbol('relative dates');

/** The typed request body: API names to JSON values. */
export type RequestBody = Record<string, string | number> & {
  [RELATIVE_DATES]?: Readonly<Record<string, string>>;
};
