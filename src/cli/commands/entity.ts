import { SEARCH_PARAMS } from '../../params/search-params.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { CRON_OPTIONS } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { RESOLVE_OPTION } from '../lists/resolve-names.js';
import { numericId, runArticleFeed } from './article-feed.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/entity/ID',
  returns: 'articles',
  tool: { name: 'get_entity_news' },
};

export const entity: CommandSpec = {
  name: 'entity',
  group: 'search',
  api: API,
  summary: summaryOf("an entity's article feed, paged", API),
  description:
    "The articles mentioning one entity: a person's or company's links.articles. Find ids with `news suggest entities PREFIX`, `news people` or `news companies`.",
  args: [{ name: 'id', description: 'entity id' }],
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION, ...CRON_OPTIONS],
  examples: [
    'news entity 20006 --language-code en',
    'news entity 20006 --sentiment-overall-polarity negative --all -o tesla.csv',
  ],
  run: withRunLog('entity', (input, runtime) =>
    runArticleFeed(
      input,
      runtime,
      API.path.replace('ID', numericId(input.args[0], 'the entity id')),
      SEARCH_PARAMS,
    ),
  ),
};
