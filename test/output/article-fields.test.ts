import { describe, expect, it } from 'vitest';
import { checkFields, selectableColumns } from '../../src/output/columns.js';
import { runCli } from '../helpers/cli.js';
import { type JsonSchema, openapi } from '../helpers/spec.js';

/** Every property path of the OpenAPI article schema, objects included. */
function paths(schema: JsonSchema, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(schema.properties ?? {})) {
    const name = `${prefix}${key}`;
    out.push(name);
    if (value.properties !== undefined) out.push(...paths(value, `${name}.`));
  }
  return out;
}

const responses = openapi().paths['/v1/news/everything']!['post']!['responses'] as Record<
  string,
  { content: Record<string, { schema: JsonSchema }> }
>;
const article = responses['200']!.content['application/json']!.schema.properties!['results']!
  .items as JsonSchema;

describe('--fields for articles', () => {
  const names = new Set(selectableColumns('article')!.map((c) => c.name));

  it('accepts every field of the OpenAPI article schema', () => {
    const documented = paths(article);
    expect(documented.length).toBeGreaterThan(50);
    expect(documented.filter((p) => !names.has(p))).toEqual([]);
  });

  it('accepts the fields the service returns beyond the schema', () => {
    for (const f of [
      'author',
      'is_clickbait',
      'events',
      'source.name',
      'source.is_premium',
      'source.is_verified',
    ]) {
      expect(names.has(f), f).toBe(true);
    }
  });

  it('an unknown field gets "did you mean", not a list of every field', () => {
    let message = '';
    let hint = '';
    try {
      checkFields('article', ['id', 'autor']);
    } catch (error) {
      message = (error as Error).message;
      hint = (error as { hint: string }).hint;
    }
    expect(message).toBe('unknown field in --fields: autor');
    expect(hint).toBe('did you mean author?');
  });

  it('is checked before anything is sent: a typo costs no request', async () => {
    const r = await runCli(['search', '--mock', '-v', '--fields', 'id,tilte', '-f', 'jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: unknown field in --fields: tilte');
    expect(r.stderr).toContain('hint: did you mean title?');
    // No request at all: the mock was never started.
    expect(r.stderr).not.toContain('using the built-in mock');
  });

  it('objects are JSON text in tabular formats and objects in jsonl', async () => {
    const fields = 'id,author,source.name,source.is_verified,is_clickbait,events';
    const csv = await runCli(['search', '--mock', '--limit', '1', '--fields', fields, '-f', 'csv']);
    expect(csv.code).toBe(0);
    const [head, row] = csv.stdout.trim().split('\r\n');
    expect(head).toBe('id,author,source.name,source.is_verified,is_clickbait,events');
    expect(row).toMatch(
      /^\d+,"\{""id"":\d+,""name"":""[^"]+""\}",[^,]+,(true|false),(true|false),"?\[/,
    );
    const jsonl = await runCli([
      'search',
      '--mock',
      '--limit',
      '1',
      '--fields',
      fields,
      '-f',
      'jsonl',
    ]);
    const record = JSON.parse(jsonl.stdout);
    expect(Object.keys(record)).toEqual(['id', 'author', 'source', 'is_clickbait', 'events']);
    expect(typeof record.author.name).toBe('string');
    expect(typeof record.source.name).toBe('string');
    expect(Array.isArray(record.events)).toBe(true);
  });

  it('people get ID --fields keeps the object shape', async () => {
    const r = await runCli([
      'people',
      'get',
      '10003',
      '--mock',
      '--fields',
      'id,name',
      '-f',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: 10003, name: 'Donald Trump' });
  });
});
