import { SEARCH_PARAMS } from '../../params/search-params.js';
import { buildRequestBody } from '../../params/validate.js';
import type { CommandSpec } from '../command-spec.js';
import { pagingFrom, runList } from '../list-runner.js';
import { RESOLVE_OPTION, resolveNames } from '../resolve-names.js';

export const search: CommandSpec = {
  name: 'search',
  group: 'search',
  summary: 'search all articles (POST /v1/news/everything)',
  params: SEARCH_PARAMS,
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION],
  examples: [
    'news search --title "rate cut" --language-code en -f table',
    'news search --brand-name Tesla --sentiment-overall-polarity negative --all -f jsonl',
    'news search --query \'title:"interest rates"~3 AND source.country.code:gb\' --limit 500 -o rates.csv',
  ],
  async run(input, runtime) {
    const body = await resolveNames(
      buildRequestBody(input.params, { now: runtime.io.now() }),
      input,
      runtime,
    );
    await runList(
      runtime,
      { method: 'POST', path: '/v1/news/everything', body },
      'article',
      pagingFrom(input.options, 'body'),
      input.options['raw'] === true,
    );
  },
};
