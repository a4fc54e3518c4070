import { SEARCH_PARAMS } from './search-params.js';
import type { ParamDef, ParamGroup } from './types.js';

/** `sentiment.overall.score.min` → `sentiment-overall-score-min` (the contract's flag naming). */
export function flagName(apiName: string): string {
  return apiName.replace(/[._]/g, '-');
}

const byName = new Map<string, ParamDef>(SEARCH_PARAMS.map((d) => [d.name, d]));
const byFlag = new Map<string, ParamDef>(SEARCH_PARAMS.map((d) => [flagName(d.name), d]));

/** The search parameter with this exact API name. */
export function searchParam(name: string): ParamDef | undefined {
  return byName.get(name);
}

/** The service's page size when a request names none: `per_page`'s default in the table. */
export const SERVICE_PER_PAGE = Number(byName.get('per_page')!.default);

/** The search parameter behind a flag name (without the leading dashes). */
export function searchParamByFlag(flag: string): ParamDef | undefined {
  return byFlag.get(flag);
}

/** Groups in the order `--help` shows them. */
export const GROUP_ORDER: readonly ParamGroup[] = [
  'Pagination',
  'Text',
  'Dates',
  'Source',
  'Classification',
  'Sentiment',
  'Media',
  'Readability',
  'Location',
  'Flags',
  'Highlighting',
  'Facets',
  'Output',
  'Directory',
];

/** Section titles in `--help` and docs/PARAMETERS.md. */
export const GROUP_TITLES: Readonly<Record<ParamGroup, string>> = {
  Pagination: 'Paging and sorting',
  Text: 'Text, query and prompt',
  Dates: 'Dates',
  Source: 'Language, country and source',
  Classification: 'Classification and entities',
  Sentiment: 'Sentiment',
  Media: 'Media',
  Readability: 'Readability and length',
  Location: 'Location',
  Flags: 'Article flags and authors',
  Highlighting: 'Highlighting',
  Facets: 'Facets and aggregation',
  Output: 'Fields returned by the server',
  Directory: 'Directory',
};
