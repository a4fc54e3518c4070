/**
 * The database field table against the service's response schemas
 * (spec/openapi.json): every documented top-level field of each kind has a
 * column of a type its schema allows, and each child table's columns are
 * the documented fields of the list's items. And the URL forms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type FieldDef,
  inferType,
  KIND_TABLES,
} from '../../src/output/destinations/database/fields.js';
import { duckdbPath, parseDatabaseUrl } from '../../src/output/destinations/database/url.js';

type Schema = {
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
};
type Operation = { responses: Record<string, { content: Record<string, { schema: Schema }> }> };
const doc = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'spec', 'openapi.json'), 'utf8'),
) as {
  paths: Record<string, { get?: Operation; post?: Operation }>;
};

function itemSchema(path: string): Schema {
  const operation = doc.paths[path]?.get ?? doc.paths[path]?.post;
  const schema = operation?.responses['200']?.content['application/json']?.schema;
  const items = schema?.properties?.['results']?.items;
  if (items?.properties === undefined) throw new Error(`no item schema for ${path}`);
  return items;
}

/** The SQL types a schema's JSON type allows. */
function allowed(schema: Schema): string[] {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t) => t !== 'null',
  );
  const t = types[0];
  if (t === 'object' || t === 'array') return ['json'];
  if (t === 'integer') return ['bigint'];
  if (t === 'number') return ['double'];
  if (t === 'boolean') return ['boolean'];
  if (t === 'string')
    return schema.format === 'date-time' ? ['timestamptz'] : ['text', 'timestamptz'];
  return [];
}

function expectMatches(fields: readonly FieldDef[], schema: Schema, where: string) {
  const byName = new Map(fields.map((f) => [f.name, f.type]));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    expect(byName.has(name), `${where}.${name} has a column`).toBe(true);
    expect(allowed(property), `${where}.${name}`).toContain(byName.get(name));
  }
}

describe('the field table follows spec/openapi.json', () => {
  const article = itemSchema('/v1/news/everything');
  it('articles', () => expectMatches(KIND_TABLES.article.fields, article, 'article'));
  it('the lists of articles, as child tables', () => {
    for (const list of KIND_TABLES.article.children) {
      const items = article.properties?.[list.field]?.items;
      // `events` is sent by the service (and the mock) but not in the OpenAPI document.
      if (items?.properties === undefined) continue;
      expectMatches(list.columns, items, `article.${list.field}[]`);
      expect(list.columns.map((c) => c.name).sort()).toEqual(Object.keys(items.properties).sort());
    }
  });
  it('people, companies, journalists', () => {
    expectMatches(KIND_TABLES.person.fields, itemSchema('/v1/people'), 'person');
    expectMatches(KIND_TABLES.company.fields, itemSchema('/v1/companies'), 'company');
    expectMatches(KIND_TABLES.journalist.fields, itemSchema('/v1/journalists'), 'journalist');
  });
});

describe('types of fields outside the table', () => {
  it('follow the values', () => {
    expect(inferType('reach', [0.5, 1])).toBe('double');
    expect(inferType('region_id', [7, 9])).toBe('bigint');
    expect(inferType('flag', [true, null])).toBe('boolean');
    expect(inferType('tags', [['a'], null])).toBe('json');
    expect(inferType('mixed', ['a', 1])).toBe('text');
    expect(inferType('empty', [null, undefined])).toBeUndefined();
  });
});

describe('database URLs', () => {
  it('recognises both engines, and nothing else', () => {
    expect(parseDatabaseUrl('postgres://u:secret@h:5433/db')).toEqual({
      engine: 'postgres',
      url: 'postgres://u:secret@h:5433/db',
      redacted: 'postgres://u@h:5433/db',
    });
    expect(parseDatabaseUrl('postgresql://h/db?sslmode=require&password=x')?.redacted).toBe(
      'postgresql://h/db?sslmode=require&password=***',
    );
    expect(parseDatabaseUrl('duckdb:news.duckdb')?.engine).toBe('duckdb');
    for (const other of ['out.jsonl', '-', 's3://bucket/key', 'postgres.jsonl', 'duckdb.csv']) {
      expect(parseDatabaseUrl(other), other).toBeUndefined();
    }
  });
  it('refuses what cannot be read, without the password', () => {
    expect(() => parseDatabaseUrl('postgres://u:secret@h:port/db')).toThrow(/^(?!.*secret)/);
    expect(() => parseDatabaseUrl('postgres://u:secret@h:port/db')).toThrow(
      /postgres:\/\/u@h:port\/db/,
    );
    expect(() => parseDatabaseUrl('postgres://h/db/extra')).toThrow(/not a database name/);
    expect(() => parseDatabaseUrl('duckdb:')).toThrow(/names no file/);
    expect(() => parseDatabaseUrl('duckdb://host/x.duckdb')).toThrow(/no host/);
  });
  it('reads a DuckDB path', () => {
    expect(duckdbPath('duckdb:news.duckdb')).toBe('news.duckdb');
    expect(duckdbPath('duckdb:///var/lib/news.duckdb')).toBe('/var/lib/news.duckdb');
    expect(duckdbPath('duckdb:/abs/x.duckdb')).toBe('/abs/x.duckdb');
  });
});
