import { describe, expect, it } from 'vitest';
import { MockHttpError } from '../../src/mock/error-envelope.js';
import { createSearchEngine } from '../../src/mock/search/index.js';
import type { Plan } from '../../src/mock/search/types.js';
import { CORPUS } from './search-corpus.js';
import { ctx, daysAgo, entity, makeStore } from './search-fixture.js';

const engine = createSearchEngine(
  makeStore(CORPUS, {
    entities: [
      { ...entity(950, 'Super Bowl', 'event'), links: { self: '/v1/news/entity/950' } },
      { ...entity(951, 'Influenza', 'disease'), links: { self: '/v1/news/entity/951' } },
      { ...entity(952, 'Cricket', 'sport'), links: { self: '/v1/news/entity/952' } },
    ],
  }),
);

function failure(run: () => unknown): MockHttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof MockHttpError) return error;
    throw error;
  }
  throw new Error('expected a MockHttpError');
}

const search =
  (params: Record<string, unknown>, plan: Plan = 'Professional') =>
  () =>
    engine.everything(params, ctx({ plan }));

describe('coded errors', () => {
  it.each([
    [
      'entity.sentiment.polarity without a selector',
      { 'entity.sentiment.polarity': 'positive' },
      400,
      'ER0293',
    ],
    ['unknown location', { 'location.name': 'Atlantis' }, 400, 'ER0218'],
    ['unknown brand', { 'brand.name': 'Acme Rockets' }, 400, 'ER0222'],
    ['unknown disaster', { 'disaster.name': 'Great Flood' }, 400, 'ER0224'],
    ['unknown disease', { 'disease.name': 'Dragon Pox' }, 400, 'ER0226'],
    ['unknown event', { 'event.name': 'Moon Olympics' }, 400, 'ER0228'],
    ['unknown sport', { 'sport.name': 'Quidditch' }, 400, 'ER0250'],
    ['a brand name that is a person', { 'brand.name': 'Elon Musk' }, 400, 'ER0222'],
    ['one of three locations unknown', { 'location.name': 'Paris,Atlantis' }, 400, 'ER0218'],
    [
      'title with a range wider than 31 days',
      { title: 'climate', 'published_at.start': daysAgo(60), 'published_at.end': daysAgo(20) },
      400,
      'ER0110',
    ],
    [
      'query with a start 40 days back',
      { query: 'climate', 'published_at.start': daysAgo(40) },
      400,
      'ER0110',
    ],
    ['a query syntax error', { query: 'climate AND (policy' }, 400, 'ER0701'],
    ['a wildcard in query', { query: 'clim*' }, 400, 'ER0704'],
    ['an unknown query field', { query: 'colour:red' }, 400, 'ER0702'],
    ['prompt too short', { prompt: 'hi' }, 400, 'ER0800'],
    ['prompt with nothing usable', { prompt: 'zzz qqq xxx' }, 400, 'ER0802'],
  ] as const)('%s', (_label, params, status, code) => {
    const e = failure(search(params));
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
  });

  it('accepts exact entity names that exist, whatever their case', () => {
    expect(() => search({ 'location.name': 'Paris' })()).not.toThrow();
    expect(() => search({ 'event.name': 'super bowl' })()).not.toThrow();
    expect(() => search({ 'disease.name': 'Influenza', 'sport.name': 'Cricket' })()).not.toThrow();
  });

  it('accepts entity sentiment with any selector', () => {
    for (const selector of [
      { 'entity.id': '1' },
      { 'person.name': 'Nobody' },
      { 'organization.name': 'X Corp' },
    ]) {
      expect(() =>
        search({ ...selector, 'entity.sentiment.polarity': 'positive' })(),
      ).not.toThrow();
    }
  });

  it('says where a query went wrong', () => {
    const e = failure(search({ query: 'climate AND (policy' }));
    expect(e.message).toMatch(/position \d+/);
  });

  it('allows a title range of exactly 31 days', () => {
    expect(() =>
      search({
        title: 'climate',
        'published_at.start': '2025-05-01',
        'published_at.end': '2025-05-31',
      })(),
    ).not.toThrow();
    expect(
      failure(
        search({
          title: 'x y',
          'published_at.start': '2025-05-01',
          'published_at.end': '2025-06-01',
        }),
      ).code,
    ).toBe('ER0110');
  });

  it('refuses prompt on Free and Starter with 403 ER0706, before looking at it', () => {
    for (const plan of ['Free', 'Starter'] as const) {
      const e = failure(search({ prompt: 'x' }, plan));
      expect([e.status, e.code]).toEqual([403, 'ER0706']);
    }
    expect(() => search({ prompt: 'news about Tesla' }, 'Basic')()).not.toThrow();
  });

  it('answers 404 for a story or entity that does not exist, 400 for an article request without ids', () => {
    expect(failure(() => engine.story('999999', {}, ctx())).status).toBe(404);
    expect(failure(() => engine.story('abc', {}, ctx())).status).toBe(404);
    expect(failure(() => engine.entityFeed('424242', {}, ctx())).status).toBe(404);
    expect(failure(() => engine.article({}, ctx())).status).toBe(400);
  });

  it('answers 400 for local without a centre and for an unknown place', () => {
    expect(failure(() => engine.local({}, ctx())).status).toBe(400);
    expect(failure(() => engine.local({ place: 'Atlantis' }, ctx())).status).toBe(400);
    expect(failure(() => engine.local({ lat: 1, lng: 2, insights: 'gossip' }, ctx())).status).toBe(
      400,
    );
  });
});

describe('the 31-day title window', () => {
  it('searches the last 31 days when no range is given, and says so', () => {
    const body = engine.everything({ title: 'climate' }, ctx()).body;
    expect((body['results'] as { id: number }[]).map((r) => r.id)).not.toContain(5);
    expect(body['meta']).toMatchObject({ warnings: [{ code: 'ER0366' }] });
  });

  it('does not narrow searches without title filters', () => {
    const body = engine.everything({ 'language.code': 'en' }, ctx()).body;
    expect((body['results'] as { id: number }[]).map((r) => r.id)).toContain(5);
    expect(body['meta']).toBeUndefined();
  });

  it('reaches 31 days back from an end given alone', () => {
    const body = engine.everything(
      { title: 'climate', 'published_at.end': daysAgo(35) },
      ctx(),
    ).body;
    expect((body['results'] as { id: number }[]).map((r) => r.id)).toEqual([5]);
  });
});
