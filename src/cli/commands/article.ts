import { UsageError } from '../../api/errors.js';
import type { CommandSpec } from '../command-spec.js';
import { runList } from '../list-runner.js';

/** The specification's limit for article ids in one request (Limits: article.id 5). */
export const MAX_ARTICLE_IDS = 5;

export const article: CommandSpec = {
  name: 'article',
  summary: 'fetch articles by id, at most 5 (POST /v1/news/article)',
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
    const ids = input.args
      .flatMap((a) => a.split(','))
      .map((a) => a.trim())
      .filter((a) => a !== '');
    const bad = ids.find((id) => !/^\d+$/.test(id));
    if (bad !== undefined) throw new UsageError(`article ids must be numeric (got "${bad}")`);
    if (ids.length === 0) throw new UsageError('article needs at least one id');
    if (ids.length > MAX_ARTICLE_IDS) {
      throw new UsageError(`article takes at most ${MAX_ARTICLE_IDS} ids (got ${ids.length})`, {
        hint: 'split the ids over several calls',
      });
    }
    // The OpenAPI request body names the list `id` (comma-separated).
    await runList(
      runtime,
      { method: 'POST', path: '/v1/news/article', body: { id: ids.join(',') } },
      'article',
      { all: false, limit: undefined, placement: 'body' },
      input.options['raw'] === true,
    );
  },
};
