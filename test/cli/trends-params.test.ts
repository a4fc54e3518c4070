import { describe, expect, it } from 'vitest';
import { TRENDS_PARAMS } from '../../src/params/trends-params.js';
import { requestSchema } from '../helpers/spec.js';

/** The trends table against the OpenAPI request schema of POST /v1/news/trends. */
const schema = requestSchema('/v1/news/trends', 'post');
const documented = Object.entries(schema.properties ?? {}).filter(([name]) => name !== 'api_key');
const table = new Map(TRENDS_PARAMS.map((d) => [d.name, d]));

describe('trends parameter table vs spec/openapi.json', () => {
  it('knows every documented parameter and nothing else', () => {
    expect([...table.keys()].sort()).toEqual(documented.map(([name]) => name).sort());
  });

  it.each(documented)('%s has the documented bounds and values', (name, prop) => {
    const def = table.get(name)!;
    if (prop.minimum !== undefined) expect(def.min).toBe(prop.minimum);
    if (prop.maximum !== undefined) expect(def.max).toBe(prop.maximum);
    if (prop.enum && def.type !== 'flag') {
      for (const value of prop.enum) expect(def.enum).toContain(String(value));
    }
  });
});
