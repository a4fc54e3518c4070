import { type Comparison, type QueryTarget, dateTest } from '../../src/params/query/index.js';

/**
 * A tiny document model and its QueryTarget, for tests only: the mock server's
 * real target belongs to the filter engine. Only the fields the tests use.
 */
export interface Ent {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly polarity: string;
  readonly score: number;
}

export interface Doc {
  readonly id: number;
  readonly title: string;
  readonly language: string;
  readonly bias: string;
  readonly readTime: number;
  readonly hasImage: 0 | 1;
  readonly score: number;
  readonly published: string;
  readonly entities: readonly Ent[];
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Words of `phrase` in order, at most `slop` extra words apart in total. */
function phraseMatch(title: string, phrase: string, slop: number): boolean {
  const have = words(title);
  const want = words(phrase);
  if (want.length === 0) return false;
  for (let start = 0; start < have.length; start++) {
    if (have[start] !== want[0]) continue;
    let at = start;
    let gaps = 0;
    let ok = true;
    for (let k = 1; k < want.length && ok; k++) {
      let next = at + 1;
      while (next < have.length && have[next] !== want[k]) next++;
      if (next >= have.length) ok = false;
      gaps += next - at - 1;
      at = next;
    }
    if (ok && gaps <= slop) return true;
  }
  return false;
}

function compare(actual: number, c: Comparison, parse: (v: string | number) => number): boolean {
  switch (c.op) {
    case 'eq':
      return actual === parse(c.value);
    case 'gt':
      return actual > parse(c.value);
    case 'gte':
      return actual >= parse(c.value);
    case 'lt':
      return actual < parse(c.value);
    case 'lte':
      return actual <= parse(c.value);
    case 'range':
      return (
        (c.from === undefined || actual >= parse(c.from)) &&
        (c.to === undefined || actual <= parse(c.to))
      );
    case 'phrase':
      throw new Error('phrase on a numeric field');
  }
}

const num = (v: string | number): number => Number(v);

function text(actual: string, c: Comparison): boolean {
  if (c.op === 'phrase') return phraseMatch(actual, c.value, c.slop);
  if (c.op !== 'eq') throw new Error(`${c.op} on text`);
  const want = words(c.value);
  const have = new Set(words(actual));
  return want.length > 0 && want.every((w) => have.has(w));
}

function keyword(actual: string, c: Comparison): boolean {
  if (c.op !== 'eq') throw new Error(`${c.op} on a keyword`);
  return actual === c.value;
}

export const tinyTarget: QueryTarget<Doc, Ent> = {
  predicate(field, c) {
    switch (field) {
      case 'title':
        return (d) => text(d.title, c);
      case 'title.starts_with':
        return (d) => c.op === 'eq' && d.title.toLowerCase().startsWith(c.value.toLowerCase());
      case 'language.code':
        return (d) => keyword(d.language, c);
      case 'source.bias':
        return (d) => keyword(d.bias, c);
      case 'read_time':
        return (d) => compare(d.readTime, c, num);
      case 'has_image':
        return (d) => compare(d.hasImage, c, num);
      case 'sentiment.overall.score':
        return (d) => compare(d.score, c, num);
      case 'published_at': {
        const test = dateTest(c);
        return (d) => test(Date.parse(d.published));
      }
      case 'entity.id':
        return (d) => d.entities.some((e) => keyword(String(e.id), c));
      default:
        throw new Error(`tiny target has no field ${field}`);
    }
  },
  entities: (d) => d.entities,
  entityPredicate(field, c) {
    switch (field) {
      case 'entity.id':
        return (e) => keyword(String(e.id), c);
      case 'entity.name':
        return (e) => c.op === 'eq' && e.name.toLowerCase() === c.value.toLowerCase();
      case 'entity.type':
        return (e) => keyword(e.type, c);
      case 'entity.sentiment.polarity':
        return (e) => keyword(e.polarity, c);
      case 'entity.sentiment.score':
        return (e) => compare(e.score, c, num);
      default:
        throw new Error(`tiny target has no entity field ${field}`);
    }
  },
};

const tesla = (polarity: string, score: number): Ent => ({
  id: 1,
  name: 'Tesla',
  type: 'organization',
  polarity,
  score,
});
const musk = (polarity: string, score: number): Ent => ({
  id: 2,
  name: 'Elon Musk',
  type: 'person',
  polarity,
  score,
});
const fed: Ent = {
  id: 3,
  name: 'Federal Reserve',
  type: 'organization',
  polarity: 'neutral',
  score: 0,
};

/** Eight documents covering each field's values. */
export const DOCS: readonly Doc[] = [
  {
    id: 1,
    title: 'Fed raises interest rates again',
    language: 'en',
    bias: 'center',
    readTime: 4,
    hasImage: 1,
    score: -0.2,
    published: '2025-01-10T08:00:00Z',
    entities: [fed],
  },
  {
    id: 2,
    title: 'Interest in electric rates of growth',
    language: 'en',
    bias: 'left',
    readTime: 2,
    hasImage: 0,
    score: 0.4,
    published: '2025-01-12T09:30:00Z',
    entities: [],
  },
  {
    id: 3,
    title: 'Tesla shares fall after recall',
    language: 'en',
    bias: 'right',
    readTime: 6,
    hasImage: 1,
    score: -0.7,
    published: '2025-01-15T12:00:00Z',
    entities: [tesla('negative', -0.8), musk('positive', 0.5)],
  },
  {
    id: 4,
    title: 'Tesla et Musk: la chute',
    language: 'fr',
    bias: 'left',
    readTime: 3,
    hasImage: 1,
    score: -0.4,
    published: '2025-01-16T00:00:00Z',
    entities: [tesla('positive', 0.3), musk('negative', -0.6)],
  },
  {
    id: 5,
    title: 'Breaking news: rates hold steady',
    language: 'en',
    bias: 'center',
    readTime: 1,
    hasImage: 0,
    score: 0.1,
    published: '2025-01-20T18:45:00Z',
    entities: [fed],
  },
  {
    id: 6,
    title: 'Die Zinsen steigen',
    language: 'de',
    bias: 'right',
    readTime: 8,
    hasImage: 1,
    score: 0.0,
    published: '2025-01-22T07:15:00Z',
    entities: [fed, tesla('neutral', 0)],
  },
  {
    id: 7,
    title: 'Musk praises new Tesla factory',
    language: 'en',
    bias: 'right',
    readTime: 5,
    hasImage: 0,
    score: 0.8,
    published: '2025-01-25T10:00:00Z',
    entities: [musk('positive', 0.9), tesla('positive', 0.7)],
  },
  {
    id: 8,
    title: 'Breaking: interest rates cut sharply',
    language: 'de',
    bias: 'left',
    readTime: 12,
    hasImage: 1,
    score: 0.6,
    published: '2025-01-31T23:59:59Z',
    entities: [fed],
  },
];
