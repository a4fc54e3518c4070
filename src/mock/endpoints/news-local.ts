import { SEARCH_PARAMS } from '../../params/search-params.js';
import { INSIGHTS, LOCAL_PARAMS } from '../../params/local-params.js';
import { MockHttpError } from '../error-envelope.js';
import type { SuggestEntity } from '../fixtures/article-types.js';
import { type EngineCore, prepareRequest } from '../search/core.js';
import { HOUR_MS } from '../search/dates.js';
import { haversineKm } from '../search/geo.js';
import { pageBounds } from '../search/paging.js';
import { listOf, parseParams } from '../search/parse-request.js';
import { articleValue, meta, outputArticle, paging, searchPoints } from '../search/respond.js';
import { type Place, placeAt, sourceOf, isBreaking } from '../search/row.js';
import { select } from '../search/select.js';
import type { EngineResult, Params, SearchContext } from '../search/types.js';
import type { ArticleTable } from '../store/table.js';
import { insightBlocks } from './local-insights.js';

type Weights = { distance: number; opr: number; recency: number; important: number };

/** The mock's presets; the provider does not publish its numbers. */
const PRESETS: Readonly<Record<string, Weights>> = {
  balanced: { distance: 0.4, opr: 0.2, recency: 0.3, important: 0.1 },
  proximity: { distance: 0.7, opr: 0.1, recency: 0.15, important: 0.05 },
  authority: { distance: 0.2, opr: 0.6, recency: 0.15, important: 0.05 },
  fresh: { distance: 0.2, opr: 0.1, recency: 0.6, important: 0.1 },
};

interface Centre {
  lat: number;
  lng: number;
  place?: string;
  entityId?: number | null;
}

function coordinate(e: SuggestEntity, key: 'lat' | 'lng'): number | undefined {
  const v = e.metadata[key];
  return typeof v === 'number' ? v : undefined;
}

/** A place name → the best known location entity with coordinates: exact name first, then a prefix. */
function resolvePlace(core: EngineCore, place: string, country: string | undefined): Centre {
  const name = place.trim().toLowerCase();
  const candidates = core.index.store.suggest.entities.filter(
    (e) =>
      e.type === 'location' &&
      coordinate(e, 'lat') !== undefined &&
      coordinate(e, 'lng') !== undefined,
  );
  const inCountry = (e: SuggestEntity) =>
    country === undefined ||
    String(e.metadata['country_code'] ?? '').toLowerCase() === country.toLowerCase();
  const exact = candidates.filter((e) => e.name.toLowerCase() === name);
  const prefix = candidates.filter((e) => e.name.toLowerCase().startsWith(name));
  const best = exact.find(inCountry) ?? prefix.find(inCountry) ?? exact[0] ?? prefix[0];
  if (best === undefined)
    throw new MockHttpError(400, undefined, `place "${place}" matches no known location.`);
  return {
    lat: coordinate(best, 'lat') as number,
    lng: coordinate(best, 'lng') as number,
    place: best.name,
    entityId: best.id,
  };
}

function centreOf(
  core: EngineCore,
  local: ReadonlyMap<string, string | number>,
  search: ReadonlyMap<string, string | number>,
): Centre | undefined {
  // Explicit lat/lng win over place (openapi); location.lat/lng are the search table's spelling.
  const lat = local.get('lat') ?? search.get('location.lat');
  const lng = local.get('lng') ?? search.get('location.lng');
  if (lat !== undefined && lng !== undefined) return { lat: Number(lat), lng: Number(lng) };
  const place = local.get('place') ?? listOf(search.get('location.name'))[0];
  if (place !== undefined) {
    const country = local.get('country');
    return resolvePlace(core, String(place), country === undefined ? undefined : String(country));
  }
  return undefined;
}

function nearest(
  t: ArticleTable,
  row: number,
  c: Centre,
): { place: Place; km: number } | undefined {
  let best: { place: Place; km: number } | undefined;
  for (let i = t.places.from(row); i < t.places.to(row); i++) {
    const place = placeAt(t, i);
    const km = haversineKm(c.lat, c.lng, place.lat, place.lng);
    if (best === undefined || km < best.km) best = { place, km };
  }
  return best;
}

const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * /v1/news/local: articles whose mentioned places lie within `radius` km of the
 * centre (lat/lng, or `place` geocoded against the location entities; a
 * location.bbox alone also works), each with distance_km and nearest_location.
 * Costs 1 point plus 1 per insight block (openapi). Paged with page/per_page.
 */
export function local(core: EngineCore, params: Params, ctx: SearchContext): EngineResult {
  const localValues = parseParams(params, LOCAL_PARAMS).values;
  const prepared = prepareRequest(core, params, ctx, { defs: SEARCH_PARAMS });
  const centre = centreOf(core, localValues, prepared.values);
  const hasBox = prepared.values.has('location.bbox');
  if (centre === undefined && !hasBox) {
    throw new MockHttpError(
      400,
      undefined,
      'lat and lng (or place, or location.bbox) are required.',
    );
  }
  const radius = Number(localValues.get('radius') ?? prepared.values.get('location.radius') ?? 50);
  const insights = listOf(localValues.get('insights'));
  const unknown = insights.find((i) => !(INSIGHTS as readonly string[]).includes(i));
  if (unknown !== undefined) {
    throw new MockHttpError(
      400,
      undefined,
      `insights: unknown block "${unknown}"; valid: ${INSIGHTS.join(', ')}.`,
    );
  }

  const t = core.index.table;
  const near = new Map<number, { place: Place; km: number }>();
  const within = (row: number): boolean => {
    if (centre === undefined) return t.places.to(row) > t.places.from(row);
    const n = nearest(t, row, centre);
    if (n === undefined || n.km > radius) return false;
    near.set(row, n);
    return true;
  };
  const matches = select(prepared, t.order, [within]);

  const sort = String(localValues.get('sort') ?? 'distance');
  const preset =
    PRESETS[String(localValues.get('ranking') ?? 'balanced')] ?? (PRESETS['balanced'] as Weights);
  const w: Weights = {
    distance: Number(localValues.get('w.distance') ?? preset.distance),
    opr: Number(localValues.get('w.opr') ?? preset.opr),
    recency: Number(localValues.get('w.recency') ?? preset.recency),
    important: Number(localValues.get('w.important') ?? preset.important),
  };
  const now = ctx.now.getTime();
  const at = (row: number): number => t.published.data[row] as number;
  const score = (d: number): number => {
    const km = near.get(d)?.km ?? radius;
    const ageHours = Math.max(0, (now - at(d)) / HOUR_MS);
    return (
      w.distance * Math.max(0, 1 - km / radius) +
      w.opr * (sourceOf(t, d).rankings.opr / 10) +
      w.recency * Math.exp(-ageHours / 72) +
      w.important * (isBreaking(t, d) ? 1 : 0)
    );
  };
  const tie = (a: number, b: number) =>
    at(b) - at(a) || (t.id.data[b] as number) - (t.id.data[a] as number);
  if (sort === 'distance')
    matches.sort((a, b) => (near.get(a)?.km ?? 0) - (near.get(b)?.km ?? 0) || tie(a, b));
  else if (sort === 'relevance') matches.sort((a, b) => score(b) - score(a) || tie(a, b));

  const pg = paging(prepared, ctx);
  const { from, to } = pageBounds(pg, matches.length);
  const results = matches.slice(from, to).map((d) => {
    const n = near.get(d);
    return {
      ...articleValue(outputArticle(core.index, d, ctx)),
      distance_km: n === undefined ? null : round(n.km, 3),
      ...(sort === 'relevance' ? { relevance_score: round(score(d), 4) } : {}),
      nearest_location:
        n === undefined
          ? null
          : {
              entity_id: n.place.entityId,
              name: n.place.name,
              lat: n.place.lat,
              lng: n.place.lng,
              country: n.place.country,
            },
    };
  });
  const body: Record<string, unknown> = {
    status: 'ok',
    query: centre
      ? {
          lat: centre.lat,
          lng: centre.lng,
          radius_km: radius,
          ...(centre.place !== undefined
            ? { place: centre.place, resolved_entity_id: centre.entityId ?? null }
            : {}),
        }
      : { bbox: String(prepared.values.get('location.bbox')) },
    results,
    total: matches.length,
    page: pg.page,
    limit: pg.perPage,
    has_next_pages: pg.page * pg.perPage < matches.length,
    request_id: ctx.requestId,
  };
  if (sort === 'relevance') body['ranking_weights'] = w;
  if (insights.length > 0) body['local_insights'] = insightBlocks(insights, matches, core, now);
  const m = meta(prepared);
  if (m) body['meta'] = m;
  return { body, points: searchPoints(prepared, ctx, 1 + insights.length) };
}
