// Seeded, random-access generator of realistic articles for the export
// benchmark: ~1.3k-character bodies (and their body_html), 3-10 entities,
// ~6.0 KB of JSON each (the "articles of ~6 KB" of the second export round). Same seed, same articles.

// The mock's seeded PRNG (mulberry32), from the build: the benchmark runs after `npm run build`.
import { seededRandom as rng } from '../dist/mock/faults.js';

const WORDS = (
  'the market said officials report growth energy policy city council data analysis ' +
  'Zürich café naïve résumé Москва новости 東京 ニュース “quoted” ‘single’ emoji 🎉 🚀 ' +
  'company shares rose, fell; analysts expect "strong" results & more <tags> in 2025'
).split(' ');
const DOMAINS = ['example.com', 'news.example.org', 'daily.example.net', 'le-monde.example.fr'];
const LANGS = ['en', 'fr', 'de', 'ru', 'ja'];
const POL = ['positive', 'neutral', 'negative'];

function sentence(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}

export function article(i, seed = 42) {
  const r = rng(seed * 1_000_003 + i);
  const paragraphs = [];
  const target = 560 + Math.floor(r() * 1300);
  let size = 0;
  while (size < target) {
    const p = sentence(r, 20 + Math.floor(r() * 40)) + '.';
    paragraphs.push(p);
    size += p.length + 2;
  }
  let body = paragraphs.join('\n\n');
  if (i % 500 === 7) body += '\u000b vertical tab';
  let title = sentence(r, 6 + Math.floor(r() * 8));
  if (i % 50 === 3) title = ['=', '+', '-', '@'][i % 4] + title;
  if (i % 1000 === 11) title = '=HYPERLINK("http://evil.example","x")';
  const domain = DOMAINS[i % DOMAINS.length];
  const entities = Array.from({ length: 3 + Math.floor(r() * 8) }, (_, k) => ({
    id: 1000 + k,
    name: sentence(r, 2),
    type: 'organization',
    frequency: 1 + Math.floor(r() * 5),
    sentiment: { score: Math.round((r() * 2 - 1) * 100) / 100, polarity: POL[k % 3] },
    links: {
      self: `https://api.example/v1/entity/${1000 + k}`,
      wikipedia: 'https://en.wikipedia.org/wiki/X',
    },
  }));
  const categories = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => ({
    id: 10 + k,
    name: sentence(r, 2),
    score: Math.round(r() * 100) / 100,
    taxonomy: 'iab-qag',
  }));
  const score = () => Math.round((r() * 2 - 1) * 1000) / 1000;
  return {
    id: 1_000_000 + i,
    href: `https://${domain}/articles/${i}`,
    published_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    title,
    description: sentence(r, 25),
    body,
    body_html: paragraphs
      .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`)
      .join(''),
    language: LANGS[i % LANGS.length],
    author: i % 33 === 0 ? null : { id: 500 + (i % 97), name: sentence(r, 2) },
    image: `https://${domain}/img/${i}.jpg`,
    categories,
    entities,
    source: {
      id: 10 + (i % DOMAINS.length),
      domain,
      home_page_url: `https://${domain}`,
      type: 'news',
      bias: 'center',
      rank: { opr: Math.floor(r() * 10) },
      location: i % 20 === 0 ? null : { country_name: 'France', country_code: 'fr' },
      favicon: `https://${domain}/favicon.ico`,
    },
    sentiment: {
      overall: { score: score(), polarity: POL[i % 3] },
      title: { score: score(), polarity: POL[(i + 1) % 3] },
      body: { score: score(), polarity: POL[(i + 2) % 3] },
    },
    keywords: [sentence(r, 1), sentence(r, 1)],
    shares: { total: 30, facebook: 10, twitter: 10, reddit: 10 },
    is_duplicate: i % 17 === 0,
    is_free: true,
    is_breaking: i % 101 === 0,
    read_time: Math.ceil(body.length / 1500),
    words_count: Math.floor(body.length / 6),
    characters_count: body.length,
  };
}

export async function* articlePages(n, pageSize = 100, seed = 42) {
  for (let start = 0; start < n; start += pageSize) {
    const page = [];
    for (let i = start; i < Math.min(n, start + pageSize); i++) page.push(article(i, seed));
    yield page;
  }
}
