import { UsageError } from '../../api/errors.js';
import { TRENDS_PARAMS, TREND_FIELDS } from '../../params/trends-params.js';
import { buildRequestBody } from '../../params/validate.js';
import { type ApiOperation, type CommandSpec, type RawOption, summaryOf } from '../command-spec.js';
import { chooseFormat, terminalWidth } from '../export/export-pages.js';
import { exportList } from '../export/single-record.js';

const byName = new Map(TRENDS_PARAMS.map((d) => [d.name, d]));

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/trends',
  returns: 'records',
  tool: { name: 'get_trends' },
};

export const trends: CommandSpec<RawOption> = {
  name: 'trends',
  group: 'search',
  api: API,
  summary: summaryOf('trending sources, categories, topics, industries or entities', API),
  description: `--field is required: ${TREND_FIELDS.join(', ')} (up to 5, comma-separated). On a terminal the counts and growth are drawn as a chart; -f exports the trend items.`,
  params: TRENDS_PARAMS,
  raw: true,
  examples: [
    'news trends --field entity.id --published-at-start 2026-11-01',
    'news trends --field topic.id,source.id --per-page 20 -f csv',
    'news trends --field entity.id --time-bucket day --language-code en',
  ],
  async run(input, runtime) {
    const body = buildRequestBody(input.params, {
      now: runtime.io.now(),
      lookup: (n) => byName.get(n),
    });
    if (body['field'] === undefined) {
      throw new UsageError('trends needs --field', {
        hint: `one or more of ${TREND_FIELDS.join(', ')}`,
      });
    }
    if (body['compare'] === '1' && body['compare_window'] === undefined) {
      throw new UsageError('--compare 1 needs --compare-window', {
        hint: 'for example --compare-window 7DAYS',
      });
    }
    const spec = { method: API.method, path: API.path, body };
    const response = await runtime.send<unknown>(spec, input.options.raw === true);
    if (response === null) return;
    if (response.mode === 'test') {
      runtime.report.notice(
        'test key: the trend values are placeholders; counts, percentages and growth rates are real',
      );
    }
    // Imported here: the views draw with cli-table3, which `news --help` must not load.
    const { renderTrends, trendGroups, trendRecords } = await import('../views/trends-chart.js');
    const groups = trendGroups(response.body);
    const format = await chooseFormat(runtime);
    const { output, fields } = runtime.settings;
    if (format === 'table' && output === undefined && fields === undefined) {
      return runtime.write(renderTrends(groups, terminalWidth(runtime)));
    }
    await exportList(runtime, trendRecords(groups), 'generic', 'news trends');
  },
};
