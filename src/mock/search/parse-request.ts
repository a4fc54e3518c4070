import type { ParamDef, RawValue } from '../../params/types.js';
import { checkValue, splitList } from '../../params/values.js';
import type { Params } from './types.js';

export type Value = string | number;

export interface ParsedParams {
  /** Valid values of the parameters `defs` names, converted (numbers as numbers, lists joined). */
  readonly values: ReadonlyMap<string, Value>;
  /** Parameters that were sent but not applied, with the rule they broke. */
  readonly invalid: ReadonlyMap<string, { rule: string; code?: string | undefined }>;
}

/** A query-string value, a JSON value or a JSON array of them; anything else is not a value. */
function toRaw(value: unknown): RawValue | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (Array.isArray(value)) {
    const parts = value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
    return parts.length === value.length ? parts.join(',') : undefined;
  }
  return undefined;
}

/**
 * String parameters where `*` and `?` are ordinary characters: patterns, free
 * text, tags and output settings. In every other string filter a wildcard
 * drops the filter (spec: "a wildcard in a flat filter … is not rejected: the
 * request succeeds and the filter is dropped"), whether or not the shared
 * parameter table marks it `noWildcard` (`source.domain=*.com`).
 */
const WILDCARD_IS_TEXT = new Set([
  'title_pattern',
  'query',
  'prompt',
  'search',
  'hl.tag.pre',
  'hl.tag.post',
  'fl',
]);
const WILDCARD = /[*?]/;

function wildcardDrops(def: ParamDef, raw: RawValue): boolean {
  return (
    def.type === 'string' &&
    typeof raw === 'string' &&
    WILDCARD.test(raw) &&
    !WILDCARD_IS_TEXT.has(def.name) &&
    !def.name.startsWith('facet.')
  );
}

/** Each parameter table's definitions by name, with their place in it. */
const tables = new WeakMap<readonly ParamDef[], Map<string, number>>();

/**
 * The definitions of `defs` that `params` names, in the table's order: a
 * request names a few of the table's ~160 parameters.
 */
export function sentDefs(params: Params, defs: readonly ParamDef[]): ParamDef[] {
  let places = tables.get(defs);
  if (places === undefined) {
    places = new Map(defs.map((d, i) => [d.name, i]));
    tables.set(defs, places);
  }
  const found: number[] = [];
  for (const name in params) {
    const at = places.get(name);
    if (at !== undefined) found.push(at);
  }
  return found.sort((a, b) => a - b).map((i) => defs[i] as ParamDef);
}

/**
 * Reads the parameters of `defs` from a request the way the service does:
 * unknown names are ignored, an invalid value is silently not applied, values
 * past a list's limit are dropped before checking (a fourth language does not
 * void the first three), and a wildcard in a `noWildcard` filter drops the filter.
 */
export function parseParams(params: Params, defs: readonly ParamDef[]): ParsedParams {
  const values = new Map<string, Value>();
  const invalid = new Map<string, { rule: string; code?: string | undefined }>();
  for (const def of sentDefs(params, defs)) {
    let raw = toRaw(params[def.name]);
    if (raw === undefined) continue;
    if (def.list !== undefined && typeof raw === 'string')
      raw = splitList(raw).slice(0, def.list).join(',');
    if (wildcardDrops(def, raw)) {
      invalid.set(def.name, {
        rule: 'must not contain a wildcard (* or ?): the filter is dropped',
      });
      continue;
    }
    const check = checkValue(def, raw);
    if (check.ok) values.set(def.name, check.value);
    else invalid.set(def.name, { rule: check.rule, code: check.code });
  }
  return { values, invalid };
}

/** A list value's parts (numbers and single values give one part). */
export function listOf(value: Value | undefined): string[] {
  return value === undefined ? [] : splitList(String(value));
}
