import type { CommandSpec } from '../command-spec.js';
import { idArguments } from '../id-args.js';
import { runList } from '../list-runner.js';

export const article: CommandSpec = {
  name: 'article',
  summary: 'fetch articles by id, at most 100 (POST /v1/news/article)',
  args: [
    {
      name: 'ids',
      description: 'article ids, comma-separated or as several arguments',
      variadic: true,
    },
  ],
  raw: true,
  examples: ['news article 101 102 103', 'news article 101,102 -f jsonl'],
  async run(input, runtime) {
    const ids = idArguments(input.args, 'id', 'article ids');
    // The OpenAPI request body names the list `id` (comma-separated, max 100);
    // every page is fetched, since a plan's per_page cap (Free 10) can split them.
    await runList(
      runtime,
      { method: 'POST', path: '/v1/news/article', body: { id: ids } },
      'article',
      { all: true, limit: undefined, placement: 'body' },
      input.options['raw'] === true,
    );
  },
};
