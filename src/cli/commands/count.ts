import { ResponseError } from '../../api/errors.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import { buildRequestBody } from '../../params/validate.js';
import { type ApiOperation, type CommandSpec, type RawOption, summaryOf } from '../command-spec.js';
import { OUTPUT, RECORD_FORMATS, REQUEST } from '../settings/global-options.js';
import { RESOLVE_OPTION, resolveNames } from '../lists/resolve-names.js';
import { writeSingle } from '../export/single-record.js';

/** Count takes the search filters; paging, sorting, highlighting and facets mean nothing to it. */
const COUNT_PARAMS = SEARCH_PARAMS.filter(
  (d) => !['Pagination', 'Highlighting', 'Facets', 'Output'].includes(d.group),
);

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/count',
  returns: 'count',
  tool: { name: 'count_news', allCommonFilters: true },
};

export const count: CommandSpec<RawOption> = {
  name: 'count',
  group: 'search',
  api: API,
  summary: summaryOf('count matching articles', API, '; prints the number'),
  description:
    'Prints the number. With -f or -o, one record instead: the count, when it was taken (as_of, ISO 8601 UTC) and the filters sent, under their API names; `news count ... -f jsonl >> counts.jsonl` from cron builds a time series.',
  params: COUNT_PARAMS,
  raw: true,
  globals: [...REQUEST, ...OUTPUT],
  formats: RECORD_FORMATS,
  valueUnlessAsked: true,
  options: [RESOLVE_OPTION],
  examples: [
    'news count --organization-name "Federal Reserve"',
    'news count --title bitcoin --published-at-start -24h -f jsonl',
    "news count --query 'source.bias:left AND read_time:>=5' --dry-run",
  ],
  async run(input, runtime) {
    const lookup = (name: string) => COUNT_PARAMS.find((d) => d.name === name);
    const checked = buildRequestBody(input.params, { now: runtime.io.now(), lookup });
    const body = await resolveNames(checked, input, runtime, lookup);
    const spec = { method: API.method, path: API.path, body };
    const response = await runtime.send<{ count?: unknown }>(spec, input.options.raw === true);
    if (response === null) return;
    const value = response.body.count;
    if (typeof value !== 'number')
      throw new ResponseError('the count response has no numeric "count" field');
    if (response.mode === 'test' && value >= 100)
      runtime.report.notice('test keys cap the count at 100');
    const { format, output } = runtime.settings;
    if (format === undefined && output === undefined) return runtime.write(`${value}\n`);
    // The body is the filters as sent: API names, relative dates resolved; never the key.
    const record = { count: value, as_of: runtime.io.now().toISOString(), filters: body };
    await writeSingle(runtime, record, 'news count', ['count', 'as_of', 'filters'], 'count');
  },
};
