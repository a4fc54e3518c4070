import { UsageError } from '../../api/errors.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import type { CommandSpec } from '../command-spec.js';
import { RESOLVE_OPTION } from '../resolve-names.js';
import { runArticleFeed } from './article-feed.js';

const PLACES = ['location.lat', 'location.bbox', 'location.name'];

export const local: CommandSpec = {
  name: 'local',
  summary: 'geo search: articles about a point, a box or a place (POST /v1/news/local)',
  description:
    'Needs a place: --location-lat and --location-lng (with --location-radius in km), --location-bbox minLat,maxLat,minLng,maxLng, or --location-name (add --resolve to look the name up first).',
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION],
  examples: [
    'news local --location-lat 48.8566 --location-lng 2.3522 --location-radius 25',
    'news local --location-bbox 51.28,51.69,-0.51,0.33 --is-breaking',
    'news local --location-name paris --resolve -f table',
  ],
  run: (input, runtime) =>
    runArticleFeed(input, runtime, '/v1/news/local', SEARCH_PARAMS, {}, (body) => {
      // Without a place the service has nothing to search around; refuse before spending a point.
      if (!PLACES.some((name) => body[name] !== undefined)) {
        throw new UsageError('local needs a place', {
          hint: 'give --location-lat/--location-lng (and --location-radius), --location-bbox or --location-name',
        });
      }
    }),
};
