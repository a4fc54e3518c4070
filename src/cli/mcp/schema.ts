/**
 * JSON Schema (the 2020-12 dialect, MCP's default) for tool arguments, from
 * the parameter table: type, enum, bounds, list limit and the table's
 * one-line help (lengths, patterns and long enums are left to the server's
 * check and the parameter reference). Short on purpose: a client pays for every byte of every
 * tool's schema in every request (docs/MCP.md, "Size"). The server checks
 * every value with the table again, whatever the client did.
 */
import type { ArgSpec } from '../command-spec.js';
import type { ParamDef } from '../../params/types.js';

export type JsonSchema = Record<string, unknown>;

/** Enums longer than this are left to the parameter reference and the server's check. */
const ENUM_LIMIT = 12;

/** The schema of one value of `def` (one list item, for lists). */
function valueSchema(def: ParamDef): JsonSchema {
  switch (def.type) {
    case 'integer':
    case 'number': {
      const out: JsonSchema = { type: def.type };
      if (def.min !== undefined) out[def.exclusiveMin ? 'exclusiveMinimum' : 'minimum'] = def.min;
      if (def.max !== undefined) out['maximum'] = def.max;
      return out;
    }
    // The API's 0/1 switches: a boolean is what an agent means.
    case 'flag':
    case 'switch':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string' };
    case 'string': {
      const out: JsonSchema = { type: 'string' };
      if (def.enum !== undefined && def.enum.length <= ENUM_LIMIT) out['enum'] = [...def.enum];
      return out;
    }
  }
}

/** The schema of parameter `def` as a tool argument; a list takes an array. */
export function paramSchema(def: ParamDef): JsonSchema {
  const description = def.help;
  if (def.list === undefined) return { ...valueSchema(def), description };
  return {
    type: 'array',
    items: valueSchema(def),
    maxItems: def.list,
    description,
  };
}

/** A positional argument of the command: ids are integers (a list of them when variadic). */
export function argSchema(arg: ArgSpec): JsonSchema {
  const numeric = /^ids?$/.test(arg.name);
  const one: JsonSchema = numeric ? { type: 'integer', minimum: 1 } : { type: 'string' };
  return arg.variadic
    ? { type: 'array', items: one, minItems: 1, description: arg.description }
    : { ...one, description: arg.description };
}

/**
 * `--max-result-chars`: the default, about 12k tokens, room for the records
 * and the agent's own work under a host's 25k-token cap (result-budget.ts);
 * and the least, below which a result could not hold its counts and one
 * shortened record. Here, not in result-budget.ts, so that checking the
 * option at start-up loads nothing the first call does not need.
 */
export const DEFAULT_MAX_RESULT_CHARS = 50_000;
export const MIN_RESULT_CHARS = 2_000;

/** The arguments every list tool shares. */
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 10;

export function limitSchema(max: number | undefined, fallback: number): JsonSchema {
  return {
    type: 'integer',
    minimum: 1,
    ...(max === undefined ? {} : { maximum: max }),
    default: fallback,
  };
}

export const PAGE_SCHEMA: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'page of `limit` records',
};

export const FIELDS_SCHEMA: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'news://docs/fields',
};

export const COUNT_TOTAL_SCHEMA: JsonSchema = {
  type: 'boolean',
  description: 'also count every match, for an exact matched (1 more point)',
};

export const FILTERS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'more parameters by API name: news://docs/parameters',
};

/** What every result's structuredContent holds (the text content renders it). */
export const OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { results: { type: 'array' }, has_more: { type: 'boolean' } },
  required: ['results', 'has_more'],
};
