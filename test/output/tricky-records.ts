/**
 * A fixed set of awkward articles for the golden files and read-back tests.
 * Every export format must survive all of them. Deterministic: no clock, no
 * randomness.
 */
import type { ApiRecord } from '../../src/output/types.js';

// An emoji (two UTF-16 units) placed so that a naive cut at 32,767 splits it.
const LONG_BODY = 'x'.repeat(32_760) + 'ab😀😀' + 'tail '.repeat(100);

export const TRICKY_ARTICLES: ApiRecord[] = [
  {
    id: 1,
    href: 'https://example.com/a?x=1&y=2',
    published_at: '2025-03-04T05:06:07Z',
    title: 'Quotes "inside", commas, and\nnewlines\r\nand\ttabs \\ backslash',
    description: 'Plain description',
    body: 'First paragraph, with "quotes".\n\nSecond paragraph <b>not html</b> & ampersand ]]> end',
    body_html: '<p>First &amp; <em>second</em></p>',
    language: 'en',
    author: { id: 11, name: "Ann O'Neil" },
    source: {
      id: 101,
      domain: 'example.com',
      home_page_url: 'https://example.com',
      type: 'news',
      bias: 'center',
      rank: { opr: 5 },
      location: { country_name: 'United States', country_code: 'us' },
      favicon: 'https://example.com/favicon.ico',
    },
    sentiment: {
      overall: { score: -0.42, polarity: 'negative' },
      title: { score: 0, polarity: 'neutral' },
      body: { score: 0.5, polarity: 'positive' },
    },
    categories: [
      { id: 1, name: 'Business, Finance', score: 0.9, taxonomy: 'iab-qag' },
      { id: 2, name: 'Tech "AI"', score: 0.5, taxonomy: 'iab-qag' },
    ],
    entities: [
      { id: 7, name: 'Acme; Inc', type: 'organization', frequency: 2 },
      { id: 8, name: 'Zoë', type: 'person', frequency: 1 },
    ],
    keywords: ['alpha', 'beta'],
    shares: { total: 10, facebook: 5, twitter: 3, reddit: 2 },
    is_duplicate: false,
    is_free: true,
    is_breaking: false,
    read_time: 3,
    words_count: 420,
  },
  {
    id: 2,
    href: 'https://example.org/unicode',
    published_at: '2025-03-05T00:00:00.000Z',
    title: 'Unicode: café, Straße, Москва, 東京, emoji 😀👩‍👩‍👧, RTL: مرحبا بالعالم, שלום',
    description: 'עברית and العربية mixed with English',
    body: 'Body with emoji 🎉 and combining é (e\u0301)',
    language: 'ar',
    author: null,
    source: { id: 102, domain: 'example.org', location: null, rankings: { opr: 7 } },
    sentiment: { overall: { score: 0.25, polarity: 'positive' } },
    entities: [],
    categories: null,
  },
  {
    id: 3,
    title: '=HYPERLINK("http://evil.example","click")',
    description: '+1 plus',
    body: '-2 minus',
    language: 'en',
    author: { id: null, name: '@mention' },
    source: { domain: '\tleading-tab.example' },
    sentiment: { overall: { score: -1, polarity: 'negative' } },
    keywords: ['=cmd', '-0.42'],
    is_breaking: true,
  },
  {
    id: 4,
    published_at: null,
    title: 'Control chars: vt\u000B bell\u0007 esc\u001B[31m nul\u0000 end',
    description: '\rstarts with CR',
    body: LONG_BODY,
    language: 'en',
  },
  {
    id: 5,
    title: null,
  },
];

/** People, companies and journalists, for the per-kind columns. */
export const TRICKY_PEOPLE: ApiRecord[] = [
  {
    id: 31,
    name: 'Ada, "Countess" Lovelace',
    type: 'person',
    links: { self: 'https://api.example/v1/people/31', wikipedia: '' },
    profile: {
      title: 'Mathematician',
      gender: 'female',
      nationality: 'GB',
      date_of_birth: '1815-12-10',
    },
  },
  { id: 32, name: 'No Profile', type: 'person', links: {}, profile: null },
];

export const TRICKY_JOURNALISTS: ApiRecord[] = [
  {
    id: 41,
    name: 'Jo Writer',
    outlets: [
      { id: 1, name: 'Daily; News', domain: 'daily.example' },
      { id: 2, name: 'Weekly', domain: 'weekly.example' },
    ],
    outlet_count: 2,
    links: { self: 'https://api.example/v1/journalists/41', articles: 'https://api.example/x' },
  },
];

export async function* pagesOf<T>(records: readonly T[], size = 2): AsyncGenerator<T[]> {
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
}
