/**
 * A small hand-made fixture store for the server's tests: every number a
 * test asserts (coverage counts, momentum, timelines) follows from the
 * articles below, independent of the generated fixtures.
 */
import { blankArticle } from '../../src/mock/article-intake.js';
import type {
  EngineResult,
  NewsEngine,
  Params,
  SearchContext,
} from '../../src/mock/engine-adapter.js';
import type {
  Article,
  ArticleEntity,
  Company,
  FixtureStore,
  Journalist,
  Person,
  Source,
} from '../../src/mock/fixtures/types.js';
import { createStore } from '../../src/mock/store/load.js';

export const NOW = new Date('2026-03-15T12:00:00.000Z');
const DAY = 86_400_000;

export const ADA = 101; // person, many articles
export const NOBODY = 102; // person, no articles
export const ACME = 201; // company
export const JOURNALIST = 301; // journalist, author records 301 and 302 merged by name

const sources: Source[] = [
  source(1, 'Daily Planet', 'dailyplanet.example', 'US', 'United States', 'en'),
  source(2, 'Le Monde Mock', 'lemonde.example', 'FR', 'France', 'fr'),
];

function source(
  id: number,
  name: string,
  domain: string,
  cc: string,
  country: string,
  language: string,
): Source {
  return {
    id,
    name,
    domain,
    home_page_url: `https://${domain}`,
    type: 'news',
    bias: 'center',
    rank: 5,
    country_code: cc,
    country_name: country,
    language,
    is_premium: false,
    is_verified: true,
    favicon: `https://${domain}/favicon.ico`,
  };
}

function entity(id: number, name: string, type: ArticleEntity['type']): ArticleEntity {
  return {
    id,
    name,
    type,
    frequency: 1,
    sentiment: {
      score: 0,
      polarity: 'neutral',
      mentions: { positive: 0, neutral: 1, negative: 0 },
    },
    title: { pos: [] },
    body: { pos: [] },
    links: {
      self: `/v1/news/entity/${id}`,
      wikipedia: `https://en.wikipedia.org/wiki/${encodeURIComponent(name)}`,
      wikidata: `https://www.wikidata.org/wiki/Q${id}`,
    },
    metadata: { wikidata_id: `Q${id}` },
  };
}

const adaEntity = entity(ADA, 'Ada Lovelace', 'person');
const acmeEntity = entity(ACME, 'Acme Corp', 'organization');
const parisEntity = entity(401, 'Paris', 'location');

interface Spec {
  id: number;
  daysAgo: number;
  src: Source;
  entities: ArticleEntity[];
  polarity: 'positive' | 'negative' | 'neutral';
  author?: { id: number; name: string };
  topic?: string;
}

function article(spec: Spec): Article {
  const s = spec.src;
  const overall = {
    score: spec.polarity === 'positive' ? 0.5 : spec.polarity === 'negative' ? -0.5 : 0,
    polarity: spec.polarity,
  };
  return {
    ...blankArticle(spec.id, new Date(NOW.getTime() - spec.daysAgo * DAY), s),
    href: `https://${s.domain}/a/${spec.id}`,
    title: `Article ${spec.id} about ${spec.entities.map((e) => e.name).join(' and ') || 'nothing'}`,
    description: 'A description long enough to be cut in test mode. '.repeat(4),
    body: 'Body text. '.repeat(60),
    body_html: `<p>${'Body text. '.repeat(60)}</p>`,
    author: spec.author ?? { id: null, name: '' },
    topics: spec.topic
      ? [
          {
            id: spec.topic,
            name: spec.topic,
            score: 0.9,
            links: { self: `/v1/news/topic/${spec.topic}` },
          },
        ]
      : [],
    entities: spec.entities,
    sentiment: { overall, title: overall, body: overall },
    story: { id: spec.id, uri: `story-${spec.id}` },
    read_time: 2,
    sentences_count: 60,
    paragraphs_count: 1,
    words_count: 120,
    characters_count: 660,
  };
}

const [planet, monde] = sources as [Source, Source];
const alice = { id: JOURNALIST, name: 'Alice Writer' };
const aliceTwin = { id: 302, name: 'Alice Writer' };

/**
 * Ada: 8 articles — 3 in the last 30 days, 2 in the 30 before, 3 older (one
 * 40 months ago, outside the 24-month timeline). Sentiment 3 positive, 2
 * negative, 3 neutral. Acme is co-mentioned 4 times, Paris twice.
 */
const SPECS: Spec[] = [
  {
    id: 1,
    daysAgo: 1,
    src: planet,
    entities: [adaEntity, acmeEntity],
    polarity: 'positive',
    author: alice,
    topic: 'science.computing',
  },
  {
    id: 2,
    daysAgo: 5,
    src: planet,
    entities: [adaEntity],
    polarity: 'positive',
    author: aliceTwin,
    topic: 'science.computing',
  },
  {
    id: 3,
    daysAgo: 20,
    src: monde,
    entities: [adaEntity, parisEntity],
    polarity: 'negative',
    author: alice,
  },
  { id: 4, daysAgo: 35, src: planet, entities: [adaEntity, acmeEntity], polarity: 'neutral' },
  {
    id: 5,
    daysAgo: 50,
    src: monde,
    entities: [adaEntity, acmeEntity, parisEntity],
    polarity: 'negative',
  },
  { id: 6, daysAgo: 100, src: planet, entities: [adaEntity, acmeEntity], polarity: 'positive' },
  { id: 7, daysAgo: 400, src: planet, entities: [adaEntity], polarity: 'neutral' },
  { id: 8, daysAgo: 1220, src: planet, entities: [adaEntity], polarity: 'neutral' },
  {
    id: 9,
    daysAgo: 2,
    src: monde,
    entities: [parisEntity],
    polarity: 'neutral',
    author: aliceTwin,
  },
];

function links(kind: 'people' | 'companies', id: number, name: string) {
  return {
    self: `/v1/${kind}/${id}`,
    articles: `/v1/news/entity/${id}`,
    wikipedia: `https://en.wikipedia.org/wiki/${encodeURIComponent(name)}`,
    wikidata: `https://www.wikidata.org/wiki/Q${id}`,
  };
}

function person(id: number, name: string): Person {
  return {
    id,
    name,
    type: 'person',
    links: links('people', id, name),
    profile: {
      title: 'Mathematician',
      gender: 'female',
      nationality: 'GB',
      date_of_birth: '1815-12-10',
      bio_summary: `${name} is a test person.`,
      social_profiles: {},
      wikidata_id: `Q${id}`,
    },
  };
}

/** Extra people so paging and plan caps have something to cut (Free: 10 per page). */
const FILLER_PEOPLE = Array.from({ length: 25 }, (_, i) =>
  person(1000 + i, `Filler Person ${i + 1}`),
);

export function makeStore(): FixtureStore {
  const people = [person(ADA, 'Ada Lovelace'), person(NOBODY, 'Nobody Known'), ...FILLER_PEOPLE];
  const company: Company = {
    id: ACME,
    name: 'Acme Corp',
    type: 'organization',
    links: links('companies', ACME, 'Acme Corp'),
    profile: {
      description: 'Makes everything.',
      website_url: 'https://acme.example',
      brand_owner: { name: 'Acme Holdings' },
      headquarters: 'Springfield',
      founded: '1949',
      logo_url: 'https://acme.example/logo.png',
      key_people: [],
      subsidiaries: [],
      wikidata_id: `Q${ACME}`,
    },
  };
  const outlets = Array.from({ length: 600 }, (_, i) => ({
    id: 5000 + i,
    name: `Outlet ${i}`,
    domain: `o${i}.example`,
  }));
  const journalist: Journalist = {
    id: JOURNALIST,
    name: 'Alice Writer',
    outlets,
    outlet_count: outlets.length,
    links: {
      self: `/v1/journalists/${JOURNALIST}`,
      articles: `/v1/news/everything?author.id=${JOURNALIST}`,
    },
  };
  return createStore({
    now: NOW,
    seed: 1,
    articles: SPECS.map(article),
    catalogue: {
      sources,
      people,
      companies: [company],
      journalists: [journalist],
      suggest: {
        entities: [],
        categories: [
          {
            id: 4000000,
            name: 'economy, business and finance',
            taxonomy: 'iptc_mediatopics',
            links: { self: '/v1/news/category/iptc_mediatopics/4000000' },
          },
          {
            id: 15000000,
            name: 'sport',
            taxonomy: 'iptc_mediatopics',
            links: { self: '/v1/news/category/iptc_mediatopics/15000000' },
          },
        ],
        topics: [
          {
            id: 'science.computing',
            name: 'Computing',
            links: { self: '/v1/news/topic/science.computing' },
          },
          {
            id: 'economy.interest-rates',
            name: 'Interest Rates',
            links: { self: '/v1/news/topic/economy.interest-rates' },
          },
        ],
        industries: [{ id: 7, name: 'Software', links: { self: '/v1/news/industry/7' } }],
      },
      eventTypes: [{ code: 'ipo', category: 'business' }],
      eventCategories: ['business', 'society', 'environment'],
      languages: [
        { id: 1, code: 'en', name: 'English' },
        { id: 3, code: 'fr', name: 'French' },
      ],
      countries: [
        { id: 840, code: 'US', name: 'United States' },
        { id: 250, code: 'FR', name: 'France' },
      ],
      journalistAuthorIds: new Map([[JOURNALIST, [JOURNALIST, 302]]]),
      duplicateOf: new Map(),
    },
  });
}

/**
 * A stand-in search engine, so the server's own rules (auth, metering,
 * headers, faults) are tested apart from the real engine: every search costs
 * 1 point for live keys, and a search for `title=nothing` finds nothing and
 * costs 0, like the spec's free zero-result searches.
 */
export function fakeEngine(store: FixtureStore): NewsEngine {
  const search = (params: Params, ctx: SearchContext): EngineResult => {
    const title = typeof params['title'] === 'string' ? params['title'].toLowerCase() : undefined;
    const results = store.articles.filter(
      (a) => title === undefined || a.title.toLowerCase().includes(title),
    );
    return {
      body: { status: 'ok', results: results.slice(0, 2), path: ctx.path, params },
      points: ctx.mode === 'test' || results.length === 0 ? 0 : 1,
    };
  };
  return {
    everything: search,
    headlines: search,
    story: (id, params, ctx) => search({ ...params, story: id }, ctx),
    article: search,
    count: (_params, ctx) => ({
      body: { status: 'ok', count: store.articles.length },
      points: ctx.mode === 'test' ? 0 : 1,
    }),
    trends: search,
    local: search,
    entityFeed: (id, params, ctx) => search({ ...params, entity: id }, ctx),
    eventTypes: () => ({
      body: { status: 'ok', categories: store.eventCategories, event_types: store.eventTypes },
      points: 0,
    }),
    matcher: (params) => {
      const title = typeof params['title'] === 'string' ? params['title'].toLowerCase() : undefined;
      return (id) =>
        title === undefined || (store.article(id)?.title.toLowerCase().includes(title) ?? false);
    },
  };
}
