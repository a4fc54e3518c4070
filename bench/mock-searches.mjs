/**
 * Five-filter searches as users send them: each names five of
 * language.code, a published_at range (at most 31 days, the spec's window),
 * category.id or topic.id, sentiment.overall.polarity, source.country.code
 * and a title word; default per_page (100) and sort (newest first). Made
 * from a fixed seed: the same list in every run, every one different, so
 * that no cache of answers can stand in for the search.
 */

/** Per language: its sources' countries, then per theme a category, a topic and title words its headlines use. */
const LANGUAGES = [
  [
    'en',
    ['US', 'GB', 'IN', 'AU', 'CA'],
    [
      ['medtop:04000000', 'economy.interest-rates', ['interest', 'rates', 'bank', 'inflation']],
      [
        'medtop:13000000',
        'technology.artificial-intelligence',
        ['launches', 'artificial', 'intelligence', 'markets'],
      ],
      ['medtop:11000000', 'politics.elections', ['protest', 'polls', 'against', 'thousands']],
      ['medtop:15000000', 'sports.football', ['leads', 'comeback', 'record', 'ahead']],
      ['medtop:07000000', 'health.public-health', ['health', 'pfizer', 'recalls']],
      ['medtop:06000000', 'environment.climate-change', ['drought', 'farmers', 'river', 'united']],
    ],
  ],
  [
    'de',
    ['DE', 'CH', 'AT'],
    [
      ['medtop:04000000', 'economy.interest-rates', ['zinsen', 'experten', 'jetzt']],
      ['medtop:13000000', 'technology.artificial-intelligence', ['intelligenz', 'kritik', 'sorgt']],
      ['medtop:11000000', 'politics.elections', ['wahl', 'streit', 'pläne']],
      ['medtop:15000000', 'sports.football', ['meisterschaft', 'neue']],
    ],
  ],
  [
    'es',
    ['ES', 'MX', 'AR'],
    [
      ['medtop:04000000', 'economy.interest-rates', ['tipos', 'interés', 'empresa']],
      ['medtop:13000000', 'technology.artificial-intelligence', ['inteligencia', 'presenta']],
      ['medtop:11000000', 'politics.elections', ['elecciones', 'plan']],
      ['medtop:15000000', 'sports.football', ['liga', 'golpea']],
    ],
  ],
  [
    'fr',
    ['FR', 'CA', 'CH', 'BE'],
    [
      ['medtop:04000000', 'economy.interest-rates', ['taux', 'groupe', 'stratégie']],
      ['medtop:13000000', 'technology.artificial-intelligence', ['artificielle', 'analystes']],
      ['medtop:15000000', 'sports.football', ['championnat', 'critiques']],
    ],
  ],
];
const POLARITIES = ['positive', 'negative', 'neutral'];
const DAY = 86_400_000;

/** A small seeded generator (mulberry32): the same searches in every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` different five-filter search bodies (objects), dated against `now`. */
export function fiveFilterSearches(count, now) {
  const next = random(31);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const end = Date.parse(now);
  const seen = new Set();
  const out = [];
  for (let i = 0; out.length < count && i < count * 20; i++) {
    const [language, countries, themes] = pick(LANGUAGES);
    const [category, topic, words] = pick(themes);
    const toDay = Math.floor(next() * 20);
    const days = 7 + Math.floor(next() * 24);
    const filters = {
      language: { 'language.code': language },
      dates: {
        'published_at.start': new Date(end - (toDay + days) * DAY).toISOString(),
        'published_at.end': new Date(end - toDay * DAY).toISOString(),
      },
      classification: next() < 0.5 ? { 'category.id': category } : { 'topic.id': topic },
      sentiment: { 'sentiment.overall.polarity': pick(POLARITIES) },
      country: { 'source.country.code': pick(countries) },
      title: { title: pick(words) },
    };
    // Five of the six kinds: a different one left out in turn.
    const left = Object.keys(filters)[out.length % 6];
    const body = {};
    for (const [kind, f] of Object.entries(filters)) if (kind !== left) Object.assign(body, f);
    const key = JSON.stringify(body);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(body);
  }
  return out;
}
