import { SEARCH_PARAMS } from '../../params/search-params.js';
import type { CommandSpec } from '../command-spec.js';
import { CRON_OPTIONS } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { RESOLVE_OPTION } from '../lists/resolve-names.js';
import { runArticleFeed } from './article-feed.js';

export const headlines: CommandSpec = {
  name: 'headlines',
  group: 'search',
  summary: 'top headlines from high-authority sources (POST /v1/news/top-headlines)',
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION, ...CRON_OPTIONS],
  examples: [
    'news headlines --language-code en --source-country-code gb',
    'news headlines --category-id medtop:04000000 --limit 20 -f csv',
  ],
  run: withRunLog('headlines', (input, runtime) =>
    runArticleFeed(input, runtime, '/v1/news/top-headlines', SEARCH_PARAMS),
  ),
};
