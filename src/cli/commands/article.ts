import { NewsError } from '../../api/errors.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { DEFAULT_GLOBALS, PAGING } from '../settings/global-options.js';
import { idArguments } from '../lists/id-args.js';
import { runList } from '../lists/list-runner.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'POST',
  path: '/v1/news/article',
  returns: 'articles',
  tool: { name: 'get_articles' },
};

export const article: CommandSpec = {
  name: 'article',
  group: 'search',
  api: API,
  summary: summaryOf('fetch articles by id, at most 100', API),
  args: [
    {
      name: 'ids',
      description: 'article ids, comma-separated or as several arguments',
      variadic: true,
    },
  ],
  raw: true,
  // Every page of the ids is fetched: --concurrency applies, though there is no --all.
  globals: [...DEFAULT_GLOBALS, ...PAGING],
  examples: [
    'news article 500000002 500000004 500000008',
    'news article 500000002,500000004 -f jsonl',
  ],
  async run(input, runtime) {
    const ids = idArguments(input.args, 'id', 'article ids');
    const found = new Set<string>();
    // The OpenAPI request body names the list `id` (comma-separated, max 100);
    // every page is fetched, since a plan's per_page cap (Free 10) can split them.
    const exported = await runList(
      runtime,
      { method: API.method, path: API.path, body: { id: ids } },
      'article',
      { all: true, limit: undefined, placement: 'body' },
      input.options['raw'] === true,
      {
        onRecords: (records) => {
          for (const r of records) found.add(String(r['id']));
        },
      },
    );
    // The service answers unknown ids with fewer records, not an error: say which.
    if (exported === undefined || runtime.stdoutClosed) return;
    const missing = ids.split(',').filter((id) => !found.has(id));
    if (missing.length === 0) return;
    const list = missing.join(', ');
    if (found.size === 0) {
      throw new NewsError(`no article found with id${missing.length > 1 ? 's' : ''} ${list}`, {
        hint: 'find ids with `news search … --fields id,title`',
      });
    }
    runtime.report.warn(`not found: article id${missing.length > 1 ? 's' : ''} ${list}`);
  },
};
