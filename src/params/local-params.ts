import { type ParamDef, paramsOf } from './types.js';

/**
 * Request parameters of POST /v1/news/local beyond the search filters, from
 * spec/openapi.json (the specification only calls it "geo search"). The CLI's
 * `local` flags and the mock's parsing both come from here.
 */

/** The insight blocks of /v1/news/local (spec/openapi.json), each 1 extra point. */
export const INSIGHTS = [
  'mood',
  'hotspots',
  'events',
  'entities',
  'bias',
  'sources',
  'timeline',
  'top_categories',
  'top_topics',
  'breaking',
  'velocity',
  'movers',
] as const;

const p = paramsOf('Location');

export const LOCAL_PARAMS: readonly ParamDef[] = [
  p('lat', 'number', 'latitude of the centre', { min: -90, max: 90 }),
  p('lng', 'number', 'longitude of the centre', { min: -180, max: 180 }),
  p('place', 'string', 'place name to use as the centre', { maxLength: 120 }),
  p('country', 'string', 'ISO 3166-1 alpha-2 code to disambiguate place', {
    pattern: /^[a-z]{2}$/i,
    patternHint: 'a two-letter ISO 3166-1 code',
    codes: 'country',
  }),
  p('radius', 'number', 'radius in km', { min: 0, exclusiveMin: true, max: 20000, default: 50 }),
  p('sort', 'string', 'order of results', {
    enum: ['distance', 'published_at', 'relevance'],
    default: 'distance',
  }),
  p('ranking', 'string', 'relevance preset', {
    enum: ['balanced', 'proximity', 'authority', 'fresh'],
  }),
  p('w.distance', 'number', 'relevance weight of proximity', { min: 0 }),
  p('w.opr', 'number', 'relevance weight of authority', { min: 0 }),
  p('w.recency', 'number', 'relevance weight of recency', { min: 0 }),
  p('w.important', 'number', 'relevance weight of breaking news', { min: 0 }),
  // No enum: the service answers an unknown block with a 400 that names the valid ones.
  p('insights', 'string', `insight blocks, 1 point each: ${INSIGHTS.join(', ')}`, {
    list: INSIGHTS.length,
    completions: INSIGHTS,
  }),
];
