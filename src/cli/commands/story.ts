import { SEARCH_PARAMS } from '../../params/search-params.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { CRON_OPTIONS } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { numericId, runArticleFeed } from './article-feed.js';

// The story request schema (spec/openapi.json) takes every search filter but prompt.
const STORY_PARAMS = SEARCH_PARAMS.filter((d) => d.name !== 'prompt');

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/story/ID',
  returns: 'articles',
  tool: { name: 'get_story' },
};

export const story: CommandSpec = {
  name: 'story',
  group: 'search',
  api: API,
  summary: summaryOf('articles of the story an article belongs to', API),
  args: [{ name: 'id', description: 'the id of an article in the story' }],
  params: STORY_PARAMS,
  paging: true,
  raw: true,
  options: CRON_OPTIONS,
  examples: ['news story 500000002', 'news story 500000002 --language-code en --all -f jsonl'],
  run: withRunLog('story', (input, runtime) =>
    runArticleFeed(
      input,
      runtime,
      API.path.replace('ID', numericId(input.args[0], 'the article id')),
      STORY_PARAMS,
    ),
  ),
};
