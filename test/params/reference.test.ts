import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderParameterReference } from '../../src/params/reference.js';
import { flagName } from '../../src/params/registry.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';

describe('docs/PARAMETERS.md', () => {
  const committed = readFileSync(new URL('../../docs/PARAMETERS.md', import.meta.url), 'utf8');

  it('is what `npm run docs` generates from the table (run it after changing the table)', () => {
    expect(committed).toBe(renderParameterReference());
  });

  it('lists every flag', () => {
    for (const def of SEARCH_PARAMS) expect(committed).toContain(`\`--${flagName(def.name)}\``);
  });
});
