/**
 * The field table a database destination makes its tables from: each
 * record kind's top-level fields with their SQL type, following the
 * response schemas of spec/openapi.json (test/db/fields.test.ts checks
 * them against it), and the lists that also land in child tables. Nested
 * objects and lists stay whole in a JSON column of the parent row; the
 * child tables are for joins.
 */
import type { RecordKind } from '../../types.js';

/** The engine-neutral types; each engine names them (`bigint`, `jsonb` / `JSON`, …). */
export type SqlType = 'text' | 'bigint' | 'double' | 'boolean' | 'timestamptz' | 'json';

export interface FieldDef {
  readonly name: string;
  readonly type: SqlType;
}

export interface ChildList {
  /** The parent's field holding the list; the child table is `<table>__<field>`. */
  readonly field: string;
  /** The items' top-level fields. */
  readonly columns: readonly FieldDef[];
}

export interface KindTable {
  readonly defaultTable: string | undefined;
  readonly fields: readonly FieldDef[];
  readonly children: readonly ChildList[];
  /** The column child rows name their parent by: `article_id`, `journalist_id`. */
  readonly parentColumn: string;
  /** Records with an `id` merge on it; counts and generic records only append. */
  readonly keyed: boolean;
}

const f = (spec: string): FieldDef[] =>
  spec
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const [name, type] = pair.split(':') as [string, SqlType];
      return { name, type };
    });

const ARTICLE = f(`
  id:bigint href:text published_at:timestamptz title:text description:text body:text
  body_html:text language:text translations:json author:json image:text categories:json
  topics:json industries:json entities:json locations_mentioned:json events:json source:json
  sentiment:json summary:json readability:json keywords:json links:json media:json shares:json
  story:json is_duplicate:boolean is_free:boolean is_breaking:boolean is_clickbait:boolean
  read_time:bigint sentences_count:bigint paragraphs_count:bigint words_count:bigint
  characters_count:bigint
`);

const ARTICLE_LISTS: ChildList[] = [
  {
    field: 'entities',
    columns: f(`id:bigint name:text type:text frequency:bigint sentiment:json title:json
      body:json links:json metadata:json`),
  },
  { field: 'categories', columns: f('id:bigint name:text score:double taxonomy:text links:json') },
  { field: 'topics', columns: f('id:text name:text score:double links:json') },
  { field: 'industries', columns: f('id:bigint name:text links:json') },
  { field: 'events', columns: f('type:text category:text') },
  {
    field: 'locations_mentioned',
    columns: f('name:text country:text lat:double lng:double type:text'),
  },
];

/** People and companies: the profile is one open-keyed object, kept whole. */
const PROFILE = f('id:bigint name:text type:text links:json profile:json');

const JOURNALIST = f('id:bigint name:text outlets:json outlet_count:bigint links:json');

export const KIND_TABLES: Readonly<Record<RecordKind | 'count', KindTable>> = {
  article: {
    defaultTable: 'articles',
    fields: ARTICLE,
    children: ARTICLE_LISTS,
    parentColumn: 'article_id',
    keyed: true,
  },
  person: {
    defaultTable: 'people',
    fields: PROFILE,
    children: [],
    parentColumn: 'person_id',
    keyed: true,
  },
  company: {
    defaultTable: 'companies',
    fields: PROFILE,
    children: [],
    parentColumn: 'company_id',
    keyed: true,
  },
  journalist: {
    defaultTable: 'journalists',
    fields: JOURNALIST,
    // The outlets a journalist writes for: "who writes for whom" as one join.
    children: [{ field: 'outlets', columns: f('id:bigint name:text domain:text') }],
    parentColumn: 'journalist_id',
    keyed: true,
  },
  count: {
    defaultTable: 'counts',
    fields: f('count:bigint as_of:timestamptz filters:json'),
    children: [],
    parentColumn: 'count_id',
    keyed: false,
  },
  // Records of no known shape (trends, suggestions, …): columns from the records
  // themselves, appended, into the table the user names.
  generic: {
    defaultTable: undefined,
    fields: [],
    children: [],
    parentColumn: 'parent_id',
    keyed: false,
  },
};

/**
 * The type a field outside the table gets, from the values a batch carries:
 * undefined while every value is null (the column waits for a value). Whole
 * numbers are `bigint` only for names that read as ids or counts, since a
 * later batch may bring a fraction to a score that happened to be whole.
 */
export function inferType(name: string, values: Iterable<unknown>): SqlType | undefined {
  const seen = new Set<string>();
  let whole = true;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') {
      seen.add('number');
      if (!Number.isInteger(value)) whole = false;
    } else if (typeof value === 'object') seen.add('json');
    else seen.add(typeof value);
  }
  if (seen.size === 0) return undefined;
  if (seen.size > 1) return seen.has('json') ? 'json' : 'text';
  const only = [...seen][0];
  if (only === 'boolean') return 'boolean';
  if (only === 'json') return 'json';
  if (only === 'number') return whole && /(^id$|_id$|count$)/.test(name) ? 'bigint' : 'double';
  return 'text';
}

/** Whether a column an existing table has under `existing` can take values of `wanted`. */
export function compatible(wanted: SqlType, existing: SqlType | 'other'): boolean {
  if (existing === wanted) return true;
  // A whole number fits a floating-point column; anything fits text, as text.
  if (wanted === 'bigint' && existing === 'double') return true;
  return existing === 'text' && wanted !== 'json';
}
