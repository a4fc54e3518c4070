import { UsageError } from '../../api/errors.js';
import { LOCAL_PARAMS } from '../../params/local-params.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { CRON_OPTIONS } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { RESOLVE_OPTION } from '../lists/resolve-names.js';
import { runArticleFeed } from './article-feed.js';

/** The search filters plus what the local endpoint adds (a centre, ranking, insights). */
const PARAMS = [...SEARCH_PARAMS, ...LOCAL_PARAMS];
const PLACES = ['location.lat', 'location.bbox', 'location.name', 'lat', 'place'];

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/local',
  returns: 'articles',
  tool: { name: 'search_local_news' },
};

export const local: CommandSpec = {
  name: 'local',
  group: 'search',
  api: API,
  summary: summaryOf('geo search: articles about a point, a box or a place', API),
  description:
    'Needs a place: --lat and --lng (with --radius in km, default 50) or --place NAME (with --country to disambiguate), as the endpoint takes them; or the search filters --location-lat/--location-lng/--location-radius, --location-bbox minLat,maxLat,minLng,maxLng, or --location-name (add --resolve to look the name up first). --insights adds summary blocks, 1 point each.',
  params: PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION, ...CRON_OPTIONS],
  examples: [
    'news local --lat 48.8566 --lng 2.3522 --radius 25 --sort relevance --ranking fresh',
    'news local --place Paris --country fr --insights mood,hotspots --raw',
    'news local --location-bbox 51.28,51.69,-0.51,0.33 --is-breaking',
  ],
  run: withRunLog('local', (input, runtime) =>
    runArticleFeed(input, runtime, API.path, PARAMS, {}, (body) => {
      // Without a place the service has nothing to search around; refuse before spending a point.
      if ((body['lat'] === undefined) !== (body['lng'] === undefined)) {
        throw new UsageError(
          `--${body['lat'] === undefined ? 'lng' : 'lat'} needs --${body['lat'] === undefined ? 'lat' : 'lng'} as well`,
        );
      }
      if (!PLACES.some((name) => body[name] !== undefined)) {
        throw new UsageError('local needs a place', {
          hint: 'give --lat/--lng (and --radius), --place, --location-bbox or --location-name',
        });
      }
    }),
  ),
};
