import { SEARCH_PARAMS } from '../search-params.js';
import type { ParamDef, ParamGroup } from '../types.js';

/** The entity types of the service (the article schema's `entities[].type`). */
export const ENTITY_TYPES = [
  'person',
  'location',
  'organization',
  'brand',
  'product',
  'natural-disaster',
  'disease',
  'event',
  'sport',
  'unknown',
] as const;

/**
 * The fields of the query language, derived from the parameter table: a field is
 * what a flat filter filters on, so `read_time`, `read_time.min` and
 * `read_time.max` are one field `read_time`, and `ignore.source.id` is
 * `source.id` (exclusion is `NOT` in the query).
 */
export type QueryFieldType = 'text' | 'keyword' | 'integer' | 'number' | 'flag' | 'date';

export interface QueryField {
  readonly name: string;
  readonly type: QueryFieldType;
  /** Legal inside `{{ … }}` (the `entity.*` fields). */
  readonly inEntityBlock: boolean;
  /** Legal outside `{{ … }}`. */
  readonly outsideEntityBlock: boolean;
  /** Takes a quoted phrase with proximity (`"a b"~3`); elsewhere quotes only quote. */
  readonly phrase: boolean;
  /** The parameter whose constraints (range, enum, pattern, length) a value must meet. */
  readonly def: ParamDef;
  readonly help: string;
}

/** Groups that shape the request or the response rather than filter articles. */
const NOT_FILTERS: ReadonlySet<ParamGroup> = new Set([
  'Pagination',
  'Highlighting',
  'Facets',
  'Output',
  'Directory',
]);

/**
 * Filters that are not article attributes: `query`, `prompt` and `search` are
 * not filters, and the geo parameters place the centre of a search.
 */
const NOT_FIELDS: ReadonlySet<string> = new Set([
  'query',
  'prompt',
  'search',
  'location.bbox',
  'location.lat',
  'location.lng',
  'location.radius',
  'location.radius.min',
]);

/** Only `title` takes phrases with proximity (specification, "Text"). */
const PHRASE_FIELDS: ReadonlySet<string> = new Set(['title']);

/**
 * Per-entity fields that no flat filter has: the name and kind of one entity.
 * Values of `entity.type` are the article schema's entity types (spec/openapi.json).
 */
const ENTITY_ONLY: readonly ParamDef[] = [
  {
    name: 'entity.name',
    group: 'Classification',
    type: 'string',
    help: 'name of the entity',
    maxLength: 120,
  },
  {
    name: 'entity.type',
    group: 'Classification',
    type: 'string',
    help: 'kind of the entity',
    enum: ENTITY_TYPES,
  },
];

/** `title_starts_with` → `title.starts_with`; `x.min`, `x.max`, `x.start`, `x.end` → `x`. */
function baseName(name: string): string {
  return name
    .replace(/^title_/, 'title.')
    .replace(/\.(min|max)$/, '')
    .replace(/^published_at\.(start|end)$/, 'published_at');
}

function fieldType(def: ParamDef): QueryFieldType {
  switch (def.type) {
    case 'integer':
    case 'number':
    case 'flag':
    case 'date':
      return def.type;
    default:
      // Titles and names are free text; ids, codes, domains and enums are keywords.
      return def.titleWindow || def.name.endsWith('.name') ? 'text' : 'keyword';
  }
}

function toField(name: string, def: ParamDef): QueryField {
  const entity = name.startsWith('entity.');
  return {
    name,
    type: fieldType(def),
    inEntityBlock: entity,
    // `entity.id` also filters whole articles, as the flat filter does; the rest of
    // `entity.*` only means something for one entity.
    outsideEntityBlock: !entity || name === 'entity.id',
    phrase: PHRASE_FIELDS.has(name),
    def,
    help: def.help.replace(/, (exactly|at least|at most)$/, ''),
  };
}

function deriveFields(): Map<string, QueryField> {
  const fields = new Map<string, QueryField>();
  for (const def of [...SEARCH_PARAMS, ...ENTITY_ONLY]) {
    if (NOT_FILTERS.has(def.group) || NOT_FIELDS.has(def.name) || def.type === 'switch') continue;
    if (def.name.startsWith('ignore.')) continue;
    const name = baseName(def.name);
    // The exact parameter comes first in the table; `.min`/`.max` only add a field when it is missing.
    if (!fields.has(name)) fields.set(name, toField(name, def));
  }
  return fields;
}

const FIELDS = deriveFields();

/** The field with this query name (`title.starts_with`, `read_time`, `entity.name`). */
export function queryField(name: string): QueryField | undefined {
  return FIELDS.get(name);
}

/** Every field, in table order. */
export function allQueryFields(): readonly QueryField[] {
  return [...FIELDS.values()];
}

export interface QueryFieldInfo {
  readonly name: string;
  readonly type: QueryFieldType;
  readonly inEntityBlock: boolean;
  readonly outsideEntityBlock: boolean;
  readonly values?: readonly string[];
  readonly help: string;
}

/** The fields for `news query fields`. */
export function queryFields(): readonly QueryFieldInfo[] {
  return allQueryFields().map((f) => ({
    name: f.name,
    type: f.type,
    inEntityBlock: f.inEntityBlock,
    outsideEntityBlock: f.outsideEntityBlock,
    ...(f.def.enum ? { values: f.def.enum } : f.type === 'flag' ? { values: ['0', '1'] } : {}),
    help: f.help,
  }));
}

/** A hint for a name that is not a field but looks like one the user meant. */
export function unknownFieldHint(name: string): string | undefined {
  if (name.startsWith('ignore.')) {
    return `exclusion is written NOT ${name.slice('ignore.'.length)}:value`;
  }
  if (name.startsWith('title_')) return `the query names it ${name.replace(/^title_/, 'title.')}`;
  const min = /^(.*)\.(min|max)$/.exec(name);
  if (min?.[1] !== undefined && FIELDS.has(min[1])) {
    return `write ${min[1]}:${min[2] === 'min' ? '>=' : '<='}N or ${min[1]}:[a TO b]`;
  }
  if (name === 'published_at.start' || name === 'published_at.end') {
    return 'write published_at:[start TO end]';
  }
  if (/^entity\./.test(name)) {
    const names = allQueryFields().filter((f) => f.inEntityBlock);
    return `entity fields: ${names.map((f) => f.name).join(', ')}`;
  }
  return 'see `news query fields`; quote a value that contains ":"';
}
