import { SEARCH_PARAMS } from '../../params/search-params.js';
import type { ParamDef } from '../../params/types.js';

/**
 * A webhook's filters are search parameters (spec, Webhook subscription);
 * paging, sorting output, highlighting and facets mean nothing to a push.
 * Plain data from the table, so `--help` stays cheap.
 */
export const WEBHOOK_FILTER_PARAMS: readonly ParamDef[] = SEARCH_PARAMS.filter(
  (d) => !['Pagination', 'Highlighting', 'Facets', 'Output'].includes(d.group),
);
