import { bench, describe } from 'vitest';
import { flagName } from '../src/params/registry.js';
import { type RawParam, buildRequestBody } from '../src/params/validate.js';

/** Budget: building and validating a request under 1 ms. */
const flags = (values: Record<string, string>): RawParam[] =>
  Object.entries(values).map(([name, raw]) => ({ name, raw, label: `--${flagName(name)}` }));

const typical = flags({
  title: 'rate cut',
  'language.code': 'en,fr',
  'source.country.code': 'us,gb',
  'published_at.start': '2026-11-01',
  'sentiment.overall.score.min': '-0.5',
  'organization.name': 'Federal Reserve',
  'entity.sentiment.polarity': 'negative',
  per_page: '100',
  'sort.by': 'published_at',
});
const withQuery = flags({
  query:
    '(title:"interest rates"~5 OR title:inflation) AND language.code:(en OR fr) AND {{entity.name:Tesla AND entity.sentiment.polarity:negative}} AND read_time:>3',
  'published_at.start': '2026-11-01',
});
const now = new Date('2026-11-22T00:00:00Z');

describe('request building (budget: < 1 ms)', () => {
  bench('nine filters', () => {
    buildRequestBody(typical, { now });
  });
  bench('a query with an entity block', () => {
    buildRequestBody(withQuery, { now });
  });
});
