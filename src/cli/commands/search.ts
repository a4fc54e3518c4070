import { SEARCH_PARAMS } from '../../params/search-params.js';
import { buildRequestBody } from '../../params/validate.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { CRON_OPTIONS, splitsTitleWindow } from '../unattended/run-options.js';
import { withRunLog } from '../export/run-log.js';
import { pagingFrom, runList } from '../lists/list-runner.js';
import { RESOLVE_OPTION, resolveNames } from '../lists/resolve-names.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/everything',
  returns: 'articles',
  tool: { name: 'search_news', allCommonFilters: true, countTotal: true, exportAs: 'export_news' },
};

export const search: CommandSpec = {
  name: 'search',
  group: 'search',
  api: API,
  summary: summaryOf('search all articles', API),
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [
    RESOLVE_OPTION,
    ...CRON_OPTIONS,
    {
      flags: '--facets-only',
      description:
        'export the facets (with --facet 1 --facet-field F) as records: facet, value, name, count',
    },
  ],
  examples: [
    'news search --title "rate cut" --language-code en -f table',
    'news search --query \'title:"interest rates"~3 AND source.country.code:gb\' --limit 500 -o rates.csv',
    'news search --facet 1 --facet-field language.id,source.bias --facets-only -f csv',
  ],
  run: withRunLog('search', async (input, runtime) => {
    const body = await resolveNames(
      buildRequestBody(input.params, {
        now: runtime.io.now(),
        splitTitleWindow: splitsTitleWindow(input.options),
      }),
      input,
      runtime,
    );
    await runList(
      runtime,
      { method: API.method, path: API.path, body },
      'article',
      pagingFrom(input.options, 'body'),
      input.options['raw'] === true,
      { facetsOnly: input.options['facetsOnly'] === true },
    );
  }),
};
