import { bench, describe } from 'vitest';
import {
  type Comparison,
  type QueryTarget,
  compileQuery,
  dateTest,
  parseQuery,
} from '../src/params/query/index.js';

/**
 * Budgets (specification limits, project targets):
 * - parsing and validating a 4,000-character query: under 1 ms;
 * - evaluating a typical compiled query over 100,000 documents: under 50 ms.
 * Run with `npm run bench` (vitest bench --run).
 */

// A query at the length limit with 60 predicates: phrases, groups, blocks, negation.
function longQuery(): string {
  const segment = (i: number, pad: number): string =>
    `(title.pattern:"${'r'.repeat(pad)}${i}" OR "interest rates"~3) AND NOT source.bias:right AND ` +
    `{{entity.name:"Tesla ${i}" AND entity.sentiment.polarity:negative}}`;
  const count = 12;
  const bare = Array.from({ length: count }, (_, i) => segment(i, 0)).join(' OR ').length;
  const pad = Math.floor((4000 - bare) / count);
  const parts = Array.from({ length: count }, (_, i) => segment(i, pad));
  // The last pattern takes the remainder, to land exactly on 4,000 characters.
  parts[count - 1] = segment(count - 1, pad + 4000 - parts.join(' OR ').length);
  const text = parts.join(' OR ');
  if (text.length !== 4000) throw new Error(`bench query is ${text.length} characters`);
  parseQuery(text); // fails loudly here if the bench query stops being valid
  return text;
}

interface Ent {
  id: number;
  name: string;
  type: string;
  polarity: string;
  score: number;
}
interface Doc {
  titleLower: string;
  titleWords: ReadonlySet<string>;
  language: string;
  bias: string;
  readTime: number;
  hasImage: number;
  published: number;
  entities: Ent[];
}

const WORDS = [
  'tesla',
  'interest',
  'rates',
  'fed',
  'market',
  'shares',
  'recall',
  'growth',
  'election',
  'storm',
  'rally',
];
const LANGS = ['en', 'fr', 'de', 'es'];
const BIAS = ['left', 'center', 'right'];
const NAMES = ['Tesla', 'Elon Musk', 'Federal Reserve', 'Apple', 'Berlin'];
const POLARITY = ['positive', 'negative', 'neutral'];

/** Deterministic documents, so runs compare. */
function documents(n: number): Doc[] {
  let seed = 42;
  const rnd = (k: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % k;
  };
  const docs: Doc[] = [];
  for (let i = 0; i < n; i++) {
    const title = Array.from({ length: 6 }, () => WORDS[rnd(WORDS.length)]).join(' ');
    docs.push({
      titleLower: title,
      titleWords: new Set(title.split(' ')),
      language: LANGS[rnd(LANGS.length)] as string,
      bias: BIAS[rnd(BIAS.length)] as string,
      readTime: rnd(15),
      hasImage: rnd(2),
      published: Date.UTC(2025, 0, 1) + rnd(31) * 86_400_000,
      entities: Array.from({ length: rnd(4) }, () => ({
        id: rnd(NAMES.length) + 1,
        name: NAMES[rnd(NAMES.length)] as string,
        type: 'organization',
        polarity: POLARITY[rnd(3)] as string,
        score: rnd(200) / 100 - 1,
      })),
    });
  }
  return docs;
}

function numeric(get: (d: Doc) => number, c: Comparison): (d: Doc) => boolean {
  const n = (v: string | number | undefined, open: number): number =>
    v === undefined ? open : Number(v);
  switch (c.op) {
    case 'eq': {
      const v = Number(c.value);
      return (d) => get(d) === v;
    }
    case 'gt': {
      const v = Number(c.value);
      return (d) => get(d) > v;
    }
    case 'gte': {
      const v = Number(c.value);
      return (d) => get(d) >= v;
    }
    case 'lt': {
      const v = Number(c.value);
      return (d) => get(d) < v;
    }
    case 'lte': {
      const v = Number(c.value);
      return (d) => get(d) <= v;
    }
    case 'range': {
      const lo = n(c.from, -Infinity);
      const hi = n(c.to, Infinity);
      return (d) => {
        const x = get(d);
        return x >= lo && x <= hi;
      };
    }
    case 'phrase':
      return () => false;
  }
}

/** A simple target over the synthetic documents: what a filter engine would do, without indexes. */
const target: QueryTarget<Doc, Ent> = {
  predicate(field, c) {
    const value = c.op === 'eq' || c.op === 'phrase' ? c.value : '';
    switch (field) {
      case 'title': {
        const lower = value.toLowerCase();
        if (c.op === 'phrase') return (d) => d.titleLower.includes(lower);
        return (d) => d.titleWords.has(lower);
      }
      case 'language.code':
        return (d) => d.language === value;
      case 'source.bias':
        return (d) => d.bias === value;
      case 'has_image':
        return numeric((d) => d.hasImage, c);
      case 'read_time':
        return numeric((d) => d.readTime, c);
      case 'published_at': {
        const test = dateTest(c);
        return (d) => test(d.published);
      }
      default:
        return () => false;
    }
  },
  entities: (d) => d.entities,
  entityPredicate(field, c) {
    const value = c.op === 'eq' ? c.value : '';
    switch (field) {
      case 'entity.name':
        return (e) => e.name === value;
      case 'entity.sentiment.polarity':
        return (e) => e.polarity === value;
      case 'entity.sentiment.score': {
        const test = numeric((d) => d.readTime, c);
        return (e) => test({ readTime: e.score } as Doc);
      }
      default:
        return () => false;
    }
  },
};

const LONG = longQuery();
const TYPICAL =
  '(tesla OR "interest rates"~3) AND language.code:(en OR fr) AND read_time:[2 TO 10] AND NOT source.bias:right ' +
  'AND published_at:>=2025-01-05 AND {{entity.name:Tesla AND entity.sentiment.polarity:negative}}';
const DOCS = documents(100_000);
const RUN = compileQuery(parseQuery(TYPICAL), target);

describe('query language', () => {
  bench('parse and validate a 4,000-character query (budget: 1 ms)', () => {
    parseQuery(LONG);
  });

  bench('compile a typical query', () => {
    compileQuery(parseQuery(TYPICAL), target);
  });

  bench('evaluate a typical query over 100,000 documents (budget: 50 ms)', () => {
    let hits = 0;
    for (let i = 0; i < DOCS.length; i++) if (RUN(DOCS[i] as Doc)) hits++;
    if (hits === 0)
      throw new Error('the typical query selects nothing: the bench would measure early exits');
  });
});
