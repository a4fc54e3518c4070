import type { CommandSpec } from '../command-spec.js';
import { idArguments } from '../id-args.js';
import { runList } from '../list-runner.js';

export const article: CommandSpec = {
  name: 'article',
  group: 'search',
  summary: 'fetch articles by id, at most 5 (POST /v1/news/article)',
  args: [
    {
      name: 'ids',
      description: 'article ids, comma-separated or as several arguments',
      variadic: true,
    },
  ],
  raw: true,
  examples: [
    'news article 500000002 500000004 500000008',
    'news article 500000002,500000004 -f jsonl',
  ],
  async run(input, runtime) {
    const ids = idArguments(input.args, 'article.id', 'article.id');
    // The OpenAPI request body names the list `id` (comma-separated).
    await runList(
      runtime,
      { method: 'POST', path: '/v1/news/article', body: { id: ids } },
      'article',
      { all: false, limit: undefined, placement: 'body' },
      input.options['raw'] === true,
    );
  },
};
