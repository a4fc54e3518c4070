/** Small API answers shared by the CLI tests (the mock's fixtures are for end-to-end runs). */

/** A minimal article, as /v1/news/* lists return them. */
export const sampleArticle = (id: number) => ({
  id,
  title: `Article ${id}`,
  published_at: '2026-11-20T10:00:00Z',
  source: { domain: 'example.com' },
  language: 'en',
});

/** One /v1/news/trends answer for entity.id, as in the specification's example. */
export const TRENDS_SAMPLE = {
  field: 'entity.id',
  total_count: 1240,
  total_articles: 58213,
  trends: [
    {
      value: { id: 5012, name: 'SpaceX', type: 'organization' },
      count: 342,
      percentage: 0.59,
      growth_rate: 2.15,
    },
    {
      value: { id: 3401, name: 'Elon Musk', type: 'person' },
      count: 218,
      percentage: 0.37,
      growth_rate: 1.45,
    },
  ],
};
