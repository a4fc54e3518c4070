import { SEARCH_PARAMS } from '../../params/search-params.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { CRON_OPTIONS } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { RESOLVE_OPTION } from '../lists/resolve-names.js';
import { runArticleFeed } from './article-feed.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/top-headlines',
  returns: 'articles',
  tool: { name: 'top_headlines' },
};

export const headlines: CommandSpec = {
  name: 'headlines',
  group: 'search',
  api: API,
  summary: summaryOf('top headlines from high-authority sources', API),
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION, ...CRON_OPTIONS],
  examples: [
    'news headlines --language-code en --source-country-code gb',
    'news headlines --category-id medtop:04000000 --limit 20 -f csv',
  ],
  run: withRunLog('headlines', (input, runtime) =>
    runArticleFeed(input, runtime, API.path, SEARCH_PARAMS),
  ),
};
