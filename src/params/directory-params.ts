import type { ParamDef } from './types.js';

/**
 * Query parameters of the directory lists (GET /v1/people, /v1/companies,
 * /v1/journalists), from the specification's "Directory endpoints" table.
 * `coverage` (profiles) is a command option (`--no-coverage`), not a filter.
 */

const PAGE: ParamDef = {
  name: 'page',
  group: 'Pagination',
  type: 'integer',
  help: 'page number',
  min: 1,
  default: 1,
};

// The specification's hard ceiling; plan ceilings (Free 10, Starter 50, Basic 200) are the server's to apply.
const PER_PAGE: ParamDef = {
  name: 'per_page',
  group: 'Pagination',
  type: 'integer',
  help: 'results per page (plan caps: Free 10, Starter 50, Basic 200)',
  min: 1,
  max: 250,
  default: 100,
};

const NAME: ParamDef = {
  name: 'name',
  group: 'Directory',
  type: 'string',
  help: 'names containing this text (substring match)',
};

const WIKIDATA_ID: ParamDef = {
  name: 'wikidata_id',
  group: 'Directory',
  type: 'string',
  help: 'knowledge-base (Wikidata) id, with or without the leading Q',
  pattern: /^Q?\d+$/i,
  patternHint: 'a Wikidata id such as Q317521 or 317521',
};

/** People and companies: name, Wikidata id, paging. */
export const ENTITY_DIRECTORY_PARAMS: readonly ParamDef[] = [PAGE, PER_PAGE, NAME, WIKIDATA_ID];

/** Journalists have no knowledge-base id. */
export const JOURNALIST_DIRECTORY_PARAMS: readonly ParamDef[] = [PAGE, PER_PAGE, NAME];

/** A lookup over one table, for buildRequestBody. */
export function lookupIn(table: readonly ParamDef[]): (name: string) => ParamDef | undefined {
  const byName = new Map(table.map((d) => [d.name, d]));
  return (name) => byName.get(name);
}
