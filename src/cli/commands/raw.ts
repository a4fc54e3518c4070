import { RAW_PARAMS } from '../../params/raw-params.js';
import { buildRequestBody } from '../../params/validate.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { pagingFrom, runList } from '../lists/list-runner.js';

const byName = new Map(RAW_PARAMS.map((d) => [d.name, d]));

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/raw',
  returns: 'records',
  tool: { name: 'list_raw_articles' },
};

export const raw: CommandSpec = {
  name: 'raw',
  group: 'search',
  api: API,
  summary: summaryOf('raw articles before parsing and enrichment, the last day only', API),
  description:
    'The discovery stage’s staging feed: title, link, dates, description, body, author, keywords and source; no language, categories, entities or sentiment. Rows expire within about a day.',
  params: RAW_PARAMS,
  paging: true,
  raw: true,
  examples: [
    'news raw --per-page 20',
    'news raw --source-id 1061 --sort-by published_at --all -f csv -o raw.csv',
  ],
  async run(input, runtime) {
    const body = buildRequestBody(input.params, {
      now: runtime.io.now(),
      lookup: (name) => byName.get(name),
    });
    // Raw rows are not enriched articles: every format shows them as they come.
    await runList(
      runtime,
      { method: API.method, path: API.path, body },
      'generic',
      pagingFrom(input.options, 'body'),
      input.options['raw'] === true,
    );
  },
};
