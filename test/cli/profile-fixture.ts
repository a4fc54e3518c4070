/** A person profile as GET /v1/people/{id} returns it, small enough to read in a test. */

export const person = (id: number, name: string) => ({
  id,
  name,
  type: 'person',
  links: {
    self: `/v1/people/${id}`,
    articles: `/v1/news/entity/${id}`,
    wikipedia: '',
    wikidata: '',
  },
  profile: { title: 'Chief executive', nationality: 'Kenya', date_of_birth: '1970-01-02' },
});

export const PROFILE = {
  ...person(42, 'Ada Example'),
  coverage: {
    article_count: 120,
    first_seen: '2025-01-03',
    last_seen: '2026-11-20',
    sentiment: { positive: 60, neutral: 30, negative: 30 },
    momentum: { last_30_days: 30, previous_30_days: 20, change_pct: 50 },
    timeline: [
      { period: '2026-09', count: 10 },
      { period: '2026-10', count: 40 },
      { period: '2026-11', count: 20 },
    ],
    top_sources: [{ id: 1, name: 'Daily', domain: 'daily.example', count: 12 }],
    top_topics: [{ id: 'economy.rates', name: 'Interest Rates', count: 9 }],
    top_countries: [{ id: 1, name: 'Kenya', code: 'KE', count: 7 }],
    top_languages: [{ id: 1, name: 'English', code: 'en', count: 100 }],
    related_entities: [{ id: 7, name: 'Acme', count: 5 }],
  },
  recent_articles: [
    {
      id: 900,
      title: 'Ada opens a factory',
      published_at: '2026-11-20T08:00:00Z',
      source: { domain: 'daily.example' },
    },
  ],
};
