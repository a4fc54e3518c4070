/** The articles most search tests run over; each one exists to be told apart by some filter. */
import type { Article } from '../../src/mock/fixtures/types.js';
import { article, daysAgo, entity, hoursAgo, image, source, video } from './search-fixture.js';

export const ALPHA = source();
export const BETA = source({
  id: 2,
  name: 'Beta Zeitung',
  domain: 'beta.de',
  bias: 'right',
  rank: 8,
  country_code: 'DE',
  country_name: 'Germany',
  language: 'de',
  is_premium: true,
  is_verified: false,
});
export const GAMMA = source({
  id: 3,
  name: 'Gamma',
  domain: 'gamma.fr',
  bias: 'left',
  rank: 2,
  country_code: 'FR',
  country_name: 'France',
  language: 'fr',
  is_premium: false,
  is_verified: false,
});

const pos = (score: number) => ({ score, polarity: 'positive' as const });
const neg = (score: number) => ({ score, polarity: 'negative' as const });

export const THUNBERG = entity(901, 'Greta Thunberg', 'person', 0.6, 'positive');
export const TESLA = entity(902, 'Tesla', 'brand', -0.7, 'negative');
export const PARIS = entity(903, 'Paris', 'location', 0.1, 'neutral', {
  lat: 48.8566,
  lng: 2.3522,
  country_code: 'FR',
});
export const TOKYO = entity(904, 'Tokyo', 'location', -0.2, 'neutral', {
  lat: 35.6762,
  lng: 139.6503,
  country_code: 'JP',
});
export const TOHOKU = entity(905, 'Tohoku Earthquake', 'natural-disaster', -0.9, 'negative');
export const MUSK = entity(906, 'Elon Musk', 'person', 0.3, 'positive');
export const UN = entity(907, 'United Nations', 'organization', 0.2, 'positive');

export const CORPUS: Article[] = [
  article(1, {
    title: 'Climate change policy debate in Europe',
    description: 'Leaders discuss climate change and a new policy.',
    published_at: hoursAgo(1),
    categories: [
      {
        id: 6000000,
        name: 'environment',
        score: 0.9,
        taxonomy: 'iptc_mediatopics',
        links: { self: '/v1/news/category/iptc_mediatopics/6000000' },
      },
    ],
    topics: [
      { id: 'environment.climate-change', name: 'Climate Change', score: 0.9, links: { self: '' } },
    ],
    industries: [{ id: 402, name: 'Renewable Energy', links: { self: '' } }],
    entities: [THUNBERG, UN],
    sentiment: { overall: pos(0.5), title: pos(0.5), body: pos(0.4) },
    media: [image(1920, 1080)],
    image: 'https://img.test/1.jpg',
    read_time: 6,
    readability: {
      flesch_kincaid_grade: 10,
      flesch_reading_ease: 65,
      automated_readability_index: 11,
      difficulty_level: 'advanced',
      target_audience: 'professional',
      reading_age: 16,
      avg_words_per_sentence: 18,
      avg_syllables_per_word: 1.6,
    },
    author: { id: 77, name: 'Jane Roe' },
    shares: { total: 30, facebook: 10, twitter: 15, reddit: 5 },
    story: { id: 500, uri: 's500' },
    locations_mentioned: [
      { name: 'Brussels', country: 'BE', lat: 50.8503, lng: 4.3517, type: 'city' },
    ],
  }),
  article(2, {
    source: BETA,
    title: 'Aktienmärkte fallen: Tesla unter Druck',
    description: 'Tesla shares fall as inflation rises.',
    published_at: hoursAgo(2),
    language: 'de',
    categories: [
      {
        id: 4000000,
        name: 'economy, business and finance',
        score: 0.8,
        taxonomy: 'iptc_mediatopics',
        links: { self: '' },
      },
    ],
    topics: [{ id: 'economy.inflation', name: 'Inflation', score: 0.7, links: { self: '' } }],
    entities: [TESLA, MUSK],
    sentiment: { overall: neg(-0.5), title: neg(-0.6), body: pos(0.2) },
    media: [image(800, 1200), image(800, 1200), video()],
    image: 'https://img.test/2.jpg',
    read_time: 12,
    readability: {
      flesch_kincaid_grade: 14,
      flesch_reading_ease: 30,
      automated_readability_index: 15,
      difficulty_level: 'expert',
      target_audience: 'academic',
      reading_age: 20,
      avg_words_per_sentence: 25,
      avg_syllables_per_word: 1.9,
    },
    is_breaking: true,
    author: { id: 78, name: 'John Doe' },
    shares: { total: 700, facebook: 400, twitter: 200, reddit: 100 },
    story: { id: 500, uri: 's500' },
    events: [{ type: 'earnings', category: 'business' }],
  }),
  article(3, {
    source: GAMMA,
    title: 'Change of climate: a policy of hope',
    published_at: hoursAgo(3),
    language: 'fr',
    entities: [PARIS],
    locations_mentioned: [
      { name: 'Paris', country: 'FR', lat: 48.8566, lng: 2.3522, type: 'city' },
    ],
    sentiment: { overall: pos(0.2), title: pos(0.3), body: pos(0.1) },
    is_duplicate: true,
    is_free: false,
    is_clickbait: true,
    read_time: 1,
    readability: {
      flesch_kincaid_grade: 3,
      flesch_reading_ease: 90,
      automated_readability_index: 4,
      difficulty_level: 'beginner',
      target_audience: 'children',
      reading_age: 8,
      avg_words_per_sentence: 8,
      avg_syllables_per_word: 1.2,
    },
    author: { id: 79, name: 'Jane Roe' },
    events: [{ type: 'protest', category: 'society' }],
    story: { id: 500, uri: 's500' },
  }),
  article(4, {
    title: 'Earthquake hits Tokyo coast',
    published_at: hoursAgo(4),
    entities: [TOKYO, TOHOKU],
    locations_mentioned: [
      { name: 'Nowhere', country: 'JP', lat: null, lng: null, type: 'region' },
      { name: 'Tokyo', country: 'JP', lat: 35.6762, lng: 139.6503, type: 'city' },
    ],
    events: [{ type: 'earthquake', category: 'environment' }],
    media: [image(300, 200)],
    image: 'https://img.test/4.jpg',
    sentiment: { overall: neg(-0.8), title: neg(-0.9), body: neg(-0.7) },
    shares: { total: 155, facebook: 100, twitter: 50, reddit: 5 },
    read_time: 2,
  }),
  article(5, {
    title: 'Climate summit ends without deal',
    published_at: daysAgo(40),
    entities: [UN],
    media: [image(3840, 2160), image(1200, 630)],
    image: 'https://img.test/5.jpg',
    read_time: 8,
    author: { id: 80, name: 'Max Mustermann' },
  }),
  article(6, {
    title: 'Policy brief: climate finance and change',
    published_at: daysAgo(10),
    source: GAMMA,
    language: 'fr',
    media: [image(1080, 1080)],
    image: 'https://img.test/6.jpg',
    read_time: 5,
    entities: [MUSK],
    sentiment: { overall: pos(0.9), title: pos(0.9), body: pos(0.9) },
  }),
];

export const LATEST_FIRST = [1, 2, 3, 4, 6, 5];
