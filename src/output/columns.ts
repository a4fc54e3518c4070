/**
 * Column definitions for the tabular formats (csv, tsv, xlsx, parquet, table)
 * and for `--fields` in every format. One list per record kind, in the
 * documented order (docs/OUTPUT.md); generic records get columns inferred from
 * the first non-empty page.
 */
import { UsageError } from '../api/errors.js';
import { closestNames } from './closest-name.js';
import type { ApiRecord, RecordKind } from './types.js';

/**
 * The type a column carries into typed formats: `int` → INT64 in Parquet,
 * `timestamp` → a date cell in XLSX and TIMESTAMP(UTC) in Parquet, `json` →
 * JSON text. Text formats write every type as text.
 */
export type ColumnType = 'int' | 'float' | 'bool' | 'timestamp' | 'string' | 'json';

/**
 * How a cell is derived from the value at `path`:
 * - `value`: the scalar itself (an object or array found there becomes JSON text);
 * - `json`: the whole value as JSON text (arrays of objects, open-keyed objects);
 * - `names`: an array of objects → their `name` fields joined with "; ";
 * - `join`: an array of scalars joined with "; ".
 */
export type Derive = 'value' | 'json' | 'names' | 'join';

export interface Column {
  /** Dotted name, as shown in headers and accepted by `--fields`. */
  readonly name: string;
  readonly type: ColumnType;
  /** Keys from the record's root; a key may itself hold a dot in generic records. */
  readonly path: readonly string[];
  /** Paths tried in order when `path` holds nothing. */
  readonly alternatives?: readonly (readonly string[])[];
  readonly derive: Derive;
}

function col(name: string, type: ColumnType, derive: Derive = 'value', alt?: string): Column {
  const base = { name, type, path: name.replace(/\.names$/, '').split('.'), derive };
  return alt === undefined ? base : { ...base, alternatives: [alt.split('.')] };
}

const LINKS = ['links.self', 'links.articles', 'links.wikipedia', 'links.wikidata'].map((n) =>
  col(n, 'string'),
);

/**
 * Articles, following the article schema of spec/openapi.json. Short, sortable
 * fields first; the bulky text columns (body, body_html) last so a spreadsheet
 * stays readable. `source.rank.opr` is the specification's name; the OpenAPI
 * document calls it `source.rankings.opr`, so both are read.
 */
export const ARTICLE_COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('published_at', 'timestamp'),
  col('title', 'string'),
  col('description', 'string'),
  col('href', 'string'),
  col('language', 'string'),
  col('author.id', 'int'),
  col('author.name', 'string'),
  col('source.id', 'int'),
  col('source.domain', 'string'),
  col('source.home_page_url', 'string'),
  col('source.type', 'string'),
  col('source.bias', 'string'),
  col('source.rank.opr', 'int', 'value', 'source.rankings.opr'),
  col('source.location.country_name', 'string'),
  col('source.location.country_code', 'string'),
  col('source.favicon', 'string'),
  col('sentiment.overall.score', 'float'),
  col('sentiment.overall.polarity', 'string'),
  col('sentiment.title.score', 'float'),
  col('sentiment.title.polarity', 'string'),
  col('sentiment.body.score', 'float'),
  col('sentiment.body.polarity', 'string'),
  col('readability.flesch_kincaid_grade', 'float'),
  col('readability.flesch_reading_ease', 'float'),
  col('readability.automated_readability_index', 'float'),
  col('readability.difficulty_level', 'string'),
  col('readability.target_audience', 'string'),
  col('readability.reading_age', 'float'),
  col('readability.avg_words_per_sentence', 'float'),
  col('readability.avg_syllables_per_word', 'float'),
  col('shares.total', 'int'),
  col('shares.facebook', 'int'),
  col('shares.twitter', 'int'),
  col('shares.reddit', 'int'),
  col('story.id', 'int'),
  col('story.uri', 'string'),
  col('is_duplicate', 'bool'),
  col('is_free', 'bool'),
  col('is_breaking', 'bool'),
  col('read_time', 'int'),
  col('sentences_count', 'int'),
  col('paragraphs_count', 'int'),
  col('words_count', 'int'),
  col('characters_count', 'int'),
  col('image', 'string'),
  col('keywords', 'string', 'join'),
  col('entities.names', 'string', 'names'),
  col('entities', 'json', 'json'),
  col('categories.names', 'string', 'names'),
  col('categories', 'json', 'json'),
  col('topics.names', 'string', 'names'),
  col('topics', 'json', 'json'),
  col('industries.names', 'string', 'names'),
  col('industries', 'json', 'json'),
  col('locations_mentioned.names', 'string', 'names'),
  col('locations_mentioned', 'json', 'json'),
  col('summary', 'json', 'json'),
  col('links', 'json', 'json'),
  col('media', 'json', 'json'),
  col('translations', 'json', 'json'),
  col('body', 'string'),
  col('body_html', 'string'),
];

/**
 * Article fields that `--fields` accepts but the default column list leaves
 * out: the objects of the OpenAPI article schema as a whole (JSON text in the
 * tabular formats, the object itself in json and jsonl), the names the
 * OpenAPI document uses where the specification differs, and the fields the
 * service returns beyond the schema (`is_clickbait`, `events`, the source's
 * name and flags). test/output/article-fields.test.ts checks the OpenAPI
 * schema against ARTICLE_COLUMNS and this list.
 */
export const ARTICLE_FIELD_EXTRAS: readonly Column[] = [
  col('author', 'json', 'json'),
  col('translations.en', 'json', 'json'),
  col('translations.en.title', 'string'),
  col('translations.en.description', 'string'),
  col('source', 'json', 'json'),
  col('source.name', 'string'),
  col('source.is_premium', 'bool'),
  col('source.is_verified', 'bool'),
  col('source.rankings', 'json', 'json'),
  col('source.rankings.opr', 'int'),
  col('source.location', 'json', 'json'),
  col('sentiment', 'json', 'json'),
  col('sentiment.overall', 'json', 'json'),
  col('sentiment.title', 'json', 'json'),
  col('sentiment.body', 'json', 'json'),
  col('readability', 'json', 'json'),
  col('shares', 'json', 'json'),
  col('story', 'json', 'json'),
  col('is_clickbait', 'bool'),
  col('events', 'json', 'json'),
  // Not an article field: the response's highlighting for the article, added by the CLI (hl=1).
  col('highlight', 'json', 'json'),
];

/** People list items: the documented person profile fields, then the whole profile. */
export const PERSON_COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('name', 'string'),
  col('type', 'string'),
  col('profile.title', 'string'),
  col('profile.gender', 'string'),
  col('profile.nationality', 'string'),
  col('profile.date_of_birth', 'string'),
  col('profile.bio_summary', 'string'),
  ...LINKS,
  col('profile', 'json', 'json'),
];

export const COMPANY_COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('name', 'string'),
  col('type', 'string'),
  col('profile.description', 'string'),
  col('profile.website_url', 'string'),
  col('profile.brand_owner.name', 'string'),
  ...LINKS,
  col('profile', 'json', 'json'),
];

export const JOURNALIST_COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('name', 'string'),
  col('outlet_count', 'int'),
  col('outlets.names', 'string', 'names'),
  col('outlets', 'json', 'json'),
  col('links.self', 'string'),
  col('links.articles', 'string'),
];

/**
 * Every column `--fields` accepts for a kind: its default columns and, for
 * articles, the extra fields. Undefined for generic records, whose fields
 * are known only from the data.
 */
export function selectableColumns(kind: RecordKind): readonly Column[] | undefined {
  return kind === 'article' ? [...ARTICLE_COLUMNS, ...ARTICLE_FIELD_EXTRAS] : fixedColumns(kind);
}

export function fixedColumns(kind: RecordKind): readonly Column[] | undefined {
  switch (kind) {
    case 'article':
      return ARTICLE_COLUMNS;
    case 'person':
      return PERSON_COLUMNS;
    case 'company':
      return COMPANY_COLUMNS;
    case 'journalist':
      return JOURNALIST_COLUMNS;
    case 'generic':
      return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

type Seen = 'none' | ColumnType;

function typeOf(v: unknown): Seen {
  if (v === null || v === undefined) return 'none';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return ISO_DATE_TIME.test(v) ? 'timestamp' : 'string';
  return 'json';
}

function merge(a: Seen, b: Seen): Seen {
  if (a === 'none') return b;
  if (b === 'none' || a === b) return a;
  if ((a === 'int' && b === 'float') || (a === 'float' && b === 'int')) return 'float';
  return 'string';
}

/**
 * Generic records: the union of flattened keys of `records`, in order of first
 * appearance. Objects become dotted columns; an array of objects becomes JSON
 * text (preceded by `X.names` when its items have a `name`); an array of
 * scalars is joined with "; ". Types are inferred over the sample; anything
 * mixed is text.
 */
export function inferColumns(records: readonly ApiRecord[]): Column[] {
  const order: string[] = [];
  const found = new Map<string, { path: string[]; derive: Derive; seen: Seen }>();
  const note = (name: string, path: string[], derive: Derive, seen: Seen): void => {
    const prev = found.get(name);
    if (prev === undefined) {
      order.push(name);
      found.set(name, { path, derive, seen });
    } else {
      prev.seen = merge(prev.seen, seen);
    }
  };
  const walk = (obj: Record<string, unknown>, path: string[]): void => {
    for (const [key, value] of Object.entries(obj)) {
      const p = [...path, key];
      const name = p.join('.');
      if (isPlainObject(value) && Object.keys(value).length > 0) {
        walk(value, p);
      } else if (Array.isArray(value)) {
        if (value.length > 0 && value.every(isPlainObject)) {
          if (value.some((item) => typeof item['name'] === 'string')) {
            note(name + '.names', p, 'names', 'string');
          }
          note(name, p, 'json', 'json');
        } else if (value.some((item) => isPlainObject(item) || Array.isArray(item))) {
          note(name, p, 'json', 'json');
        } else {
          note(name, p, 'join', 'string');
        }
      } else {
        const seen = typeOf(value);
        note(name, p, seen === 'json' ? 'json' : 'value', seen);
      }
    }
  };
  for (const record of records) walk(record, []);
  return order.map((name) => {
    const f = found.get(name)!;
    const type: ColumnType = f.seen === 'none' ? 'string' : f.seen;
    return { name, path: f.path, derive: f.derive, type };
  });
}

/**
 * Picks and orders columns for `--fields`. An unknown name is a usage error
 * with the closest valid names ("did you mean"), so a typo never silently
 * yields an empty column and the hint stays one line.
 */
export function selectColumns(available: readonly Column[], fields: readonly string[]): Column[] {
  const byName = new Map(available.map((c) => [c.name, c]));
  const unknown = fields.filter((f) => !byName.has(f));
  if (unknown.length > 0) {
    const names = available.map((c) => c.name);
    const close = [...new Set(unknown.flatMap((f) => closestNames(f, names)))];
    throw new UsageError(
      `unknown field${unknown.length > 1 ? 's' : ''} in --fields: ${unknown.join(', ')}`,
      {
        hint:
          names.length === 0
            ? 'no fields to choose from: the first page is empty'
            : close.length > 0
              ? `did you mean ${close.join(', ')}?`
              : 'fields are the dotted names of a record, as -f json shows them (e.g. id,title,source.domain)',
      },
    );
  }
  const seen = new Set<string>();
  const out: Column[] = [];
  for (const f of fields) {
    if (seen.has(f)) continue;
    seen.add(f);
    out.push(byName.get(f)!);
  }
  return out;
}

/**
 * `--fields` checked before anything is sent, for the kinds whose fields are
 * known in advance; generic records are checked against their first page.
 */
export function checkFields(kind: RecordKind, fields: readonly string[] | undefined): void {
  const selectable = selectableColumns(kind);
  if (fields !== undefined && fields.length > 0 && selectable !== undefined) {
    selectColumns(selectable, fields);
  }
}
