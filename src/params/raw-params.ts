import { searchParam } from './registry.js';
import { type ParamDef, paramsOf } from './types.js';

/**
 * Request body of `POST /v1/news/raw` (spec/openapi.json; the specification
 * does not list the endpoint): paging, source ids, a published_at range and a
 * three-field sort. Shared filters are taken from the search table so their
 * checks stay identical; `sort.by` has its own, smaller enum and default.
 * Shared by `news raw` and the mock.
 */
const shared = (name: string): ParamDef => searchParam(name) as ParamDef;
const r = paramsOf('Pagination');

export const RAW_PARAMS: readonly ParamDef[] = [
  shared('page'),
  shared('per_page'),
  shared('source.id'),
  shared('ignore.source.id'),
  shared('published_at'),
  shared('published_at.start'),
  shared('published_at.end'),
  r('sort.by', 'string', 'sort field', {
    enum: ['id', 'published_at', 'created_at'],
    default: 'id',
  }),
  shared('sort.order'),
  shared('prompt'),
];
