import { describe, expect, it } from 'vitest';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import type { ParamDef } from '../../src/params/types.js';
import { requestSchema } from '../helpers/spec.js';

/**
 * The parameter table against the provider's OpenAPI document: every parameter
 * it documents for the search endpoint is known, with a compatible type and the
 * same bounds and enum values.
 */
const schema = requestSchema('/v1/news/everything', 'post');
const documented = Object.entries(schema.properties ?? {});
const table = new Map(SEARCH_PARAMS.map((d) => [d.name, d]));

/** Documented, but deliberately not parameter flags. */
const NOT_FLAGS: Record<string, string> = {
  export: 'exports are written client-side in every format (-f/-o), from the JSON',
  api_key: 'the key travels per --auth, never as a search parameter',
  debug: 'undocumented server diagnostics; reachable with --param debug=1',
};

function compatible(
  def: ParamDef,
  type: string | undefined,
  values: unknown[] | undefined,
): boolean {
  switch (def.type) {
    case 'integer':
      return type === 'integer';
    case 'number':
      return type === 'number' || type === 'integer';
    case 'flag':
      return type === 'integer' && JSON.stringify(values) === '[0,1]';
    case 'switch':
      return type === 'string' && (values ?? []).every((v) => def.enum?.includes(String(v)));
    case 'string':
    case 'date':
      return type === 'string';
  }
}

describe('parameter table vs spec/openapi.json', () => {
  it('documents more than 150 search parameters (sanity check of the extraction)', () => {
    expect(documented.length).toBeGreaterThan(150);
  });

  it.each(documented)('%s is known with a compatible type and constraints', (name, prop) => {
    if (name in NOT_FLAGS) {
      expect(table.has(name)).toBe(false);
      return;
    }
    const def = table.get(name);
    expect(def, `${name} is missing from the parameter table`).toBeDefined();
    if (!def) return;
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    expect(compatible(def, type, prop.enum), `${name}: table type ${def.type} vs ${type}`).toBe(
      true,
    );
    if (prop.minimum !== undefined) expect(def.min).toBe(prop.minimum);
    if (prop.exclusiveMinimum !== undefined) {
      expect(def.min).toBe(prop.exclusiveMinimum);
      expect(def.exclusiveMin).toBe(true);
    }
    if (prop.maximum !== undefined) expect(def.max).toBe(prop.maximum);
    if (prop.minLength !== undefined) expect(def.minLength).toBe(prop.minLength);
    if (prop.maxLength !== undefined) expect(def.maxLength).toBe(prop.maxLength);
    if (prop.enum && def.type === 'string') {
      // The table may know more values (the specification's), never fewer.
      for (const value of prop.enum) expect(def.enum).toContain(value);
    }
  });

  it('knows only parameters that the specification or the OpenAPI names', () => {
    const inOpenapi = new Set(documented.map(([name]) => name));
    // In the specification's tables but not in the OpenAPI request schema.
    const specOnly = ['query', 'search'];
    const extra = SEARCH_PARAMS.map((d) => d.name).filter((n) => !inOpenapi.has(n));
    expect(extra.sort()).toEqual(specOnly.sort());
  });

  it('declares each parameter once', () => {
    expect(table.size).toBe(SEARCH_PARAMS.length);
  });
});
