import type { FixtureStore } from '../store/fixture-store.js';
import { DAY_MS, HOUR_MS, startOfDay } from './dates.js';
import { categorySlug } from './row.js';

/**
 * The `prompt` parameter, translated by rules instead of a language model: the
 * mock recognises the names it has data for (languages, countries, entities,
 * topics, categories, event types) and a few fixed phrasings (time spans,
 * sentiment, breaking, media, bias, reading length). Deterministic given the
 * vocabulary and `now`.
 */

export interface PromptVocabulary {
  readonly languages: readonly { code: string; name: string }[];
  readonly countries: readonly { code: string; name: string }[];
  readonly entities: readonly { id: number; name: string; type: string }[];
  readonly topics: readonly { id: string; name: string }[];
  readonly categories: readonly { id: number; name: string }[];
  readonly eventTypes: readonly string[];
}

/** The names a store has data for. */
export function promptVocabularyOf(store: FixtureStore): PromptVocabulary {
  return {
    languages: store.languages,
    countries: store.countries,
    entities: store.suggest.entities,
    topics: store.suggest.topics,
    categories: store.suggest.categories,
    eventTypes: store.eventTypes.map((e) => e.code),
  };
}

export type IgnoredReason =
  | 'not_found'
  | 'explicit_param'
  | 'unsupported_on_endpoint'
  | 'invalid_date'
  | 'title_too_long'
  | 'title_window_clamped';

export interface IgnoredPart {
  field: string;
  value: string;
  reason: IgnoredReason;
}

export interface PromptTranslation {
  /** Parameters the wording maps to, before explicit parameters are taken into account. */
  readonly params: Readonly<Record<string, string>>;
  /** Parts understood but unusable (an unknown name, a bad date). */
  readonly ignored: readonly IgnoredPart[];
}

/** Entity types → the name filter that selects them; other kinds go by id. */
const NAME_PARAM: Readonly<Record<string, string>> = {
  person: 'person.name',
  organization: 'organization.name',
  brand: 'brand.name',
  location: 'location.name',
  'natural-disaster': 'disaster.name',
  disease: 'disease.name',
  event: 'event.name',
  sport: 'sport.name',
};

const LIST_LIMIT: Readonly<Record<string, number>> = { 'event.type': 5 };

/** Fixed phrasings → parameters. Checked before names, so "breaking" is never an entity. */
const PHRASES: readonly [RegExp, string, string][] = [
  [/\bbreaking\b/, 'is_breaking', '1'],
  [
    /\b(?:positive|good|optimistic|upbeat|uplifting|hopeful)\b/,
    'sentiment.overall.polarity',
    'positive',
  ],
  [
    /\b(?:negative|bad|pessimistic|gloomy|alarming|critical)\b/,
    'sentiment.overall.polarity',
    'negative',
  ],
  [/\bneutral\b/, 'sentiment.overall.polarity', 'neutral'],
  [/\bwith (?:images?|photos?|pictures?)\b/, 'has_image', '1'],
  [/\bwith videos?\b/, 'has_video', '1'],
  [/\b(?:left[- ]leaning|left[- ]wing|liberal)\b/, 'source.bias', 'left'],
  [/\b(?:right[- ]leaning|right[- ]wing|conservative)\b/, 'source.bias', 'right'],
  [/\b(?:centrist|center|centre)\b/, 'source.bias', 'center'],
  [/\blong[- ]reads?\b/, 'is_long_read', '1'],
  [/\b(?:short|quick)[- ]reads?\b/, 'is_short_read', '1'],
  [/\b(?:no duplicates|without duplicates|unique articles)\b/, 'is_duplicate', '0'],
  [/\bpremium sources?\b/, 'is_premium_source', '1'],
  [/\bverified sources?\b/, 'is_verified_source', '1'],
  [/\b(?:no paywall|without paywall|paywall[- ]free|free to read)\b/, 'is_paywall', '0'],
];

const TOPIC_ALIASES: Readonly<Record<string, string>> = {
  ai: 'technology.artificial-intelligence',
};

/** Capitalised words that start a request rather than name something. */
const NOT_NAMES = new Set(
  'show find get give list latest recent news articles stories about on from the a an in of for and with i me please what any all top today yesterday last past this week month day days weeks months'.split(
    ' ',
  ),
);

const UNIT_MS: Readonly<Record<string, number>> = {
  hour: HOUR_MS,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
};

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const iso = (ms: number): string => new Date(ms).toISOString();
const isoDate = (ms: number): string => iso(ms).slice(0, 10);

class Reader {
  /** Lower-case text; matched parts are blanked so nothing is read twice. */
  text: string;
  readonly params: Record<string, string> = {};
  readonly ignored: IgnoredPart[] = [];

  constructor(readonly original: string) {
    this.text = original.toLowerCase();
  }

  /** Finds `re` (a whole-word regex), consumes the match, returns it. */
  take(re: RegExp): RegExpExecArray | undefined {
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.text =
      this.text.slice(0, m.index) +
      ' '.repeat(m[0].length) +
      this.text.slice(m.index + m[0].length);
    return m;
  }

  takeWord(phrase: string): boolean {
    return (
      this.take(
        new RegExp(
          `(?<![\\p{L}\\p{N}])${escapeRegExp(phrase.toLowerCase())}(?![\\p{L}\\p{N}])`,
          'u',
        ),
      ) !== undefined
    );
  }

  add(param: string, value: string): void {
    const existing = this.params[param];
    if (existing === undefined) {
      this.params[param] = value;
      return;
    }
    const values = existing.split(',');
    // Lists take three values (five for event types); a flag or enum keeps its first reading.
    if (values.includes(value) || !(param in NAME_PARAM_VALUES || param in LIST_PARAMS)) return;
    if (values.length < (LIST_LIMIT[param] ?? 3)) this.params[param] = `${existing},${value}`;
  }
}

const NAME_PARAM_VALUES: Readonly<Record<string, true>> = Object.fromEntries(
  Object.values(NAME_PARAM).map((p) => [p, true]),
);
const LIST_PARAMS: Readonly<Record<string, true>> = {
  'language.code': true,
  'source.country.code': true,
  'entity.id': true,
  'topic.id': true,
  'category.id': true,
  'event.type': true,
};

function readTime(r: Reader, now: number): void {
  const span = r.take(/\b(?:last|past|previous)\s+(\d+)\s+(hour|day|week|month)s?\b/);
  if (span?.[1] && span[2]) {
    r.add('published_at.start', iso(now - Number(span[1]) * (UNIT_MS[span[2]] ?? DAY_MS)));
    return;
  }
  const one = r.take(/\b(?:last|past|this)\s+(24 hours|hour|day|week|month)\b/);
  if (one?.[1]) {
    const unit = one[1] === '24 hours' ? 'day' : one[1];
    r.add('published_at.start', iso(now - (UNIT_MS[unit] ?? DAY_MS)));
    return;
  }
  if (r.take(/\btoday\b/)) {
    r.add('published_at.start', iso(startOfDay(now)));
    return;
  }
  if (r.take(/\byesterday\b/)) {
    r.add('published_at', isoDate(startOfDay(now) - DAY_MS));
    return;
  }
  for (const [word, param] of [
    ['since|after', 'published_at.start'],
    ['until|before', 'published_at.end'],
  ] as const) {
    const m = r.take(new RegExp(`\\b(?:${word})\\s+(\\d{4}-\\d{2}-\\d{2})\\b`));
    if (m?.[1]) {
      const ok = !Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`));
      if (ok) r.add(param, m[1]);
      else r.ignored.push({ field: param, value: m[1], reason: 'invalid_date' });
    }
  }
}

/**
 * The items whose name occurs in the text, in text order (so "French and Spanish"
 * gives fr,es); at one position the longest name wins ("New York City" over "New York").
 */
function byPosition<T extends { name: string }>(items: readonly T[], text: string): T[] {
  return items
    .map((item) => ({ item, at: text.indexOf(item.name.toLowerCase()) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at || b.item.name.length - a.item.name.length)
    .map((x) => x.item);
}

export function translatePrompt(
  prompt: string,
  vocab: PromptVocabulary,
  now: Date,
): PromptTranslation {
  const r = new Reader(prompt.trim());
  const nowMs = now.getTime();
  readTime(r, nowMs);
  for (const [re, param, value] of PHRASES) if (r.take(re)) r.add(param, value);

  // "in French", "French news": a language by name.
  for (const l of byPosition(vocab.languages, r.text))
    if (r.takeWord(l.name)) r.add('language.code', l.code.toLowerCase());
  // "from Germany": where the source is; a country named otherwise is a place mentioned.
  for (const c of byPosition(vocab.countries, r.text)) {
    if (r.take(new RegExp(`\\bfrom\\s+(?:the\\s+)?${escapeRegExp(c.name.toLowerCase())}\\b`))) {
      r.add('source.country.code', c.code.toLowerCase());
    }
  }
  for (const e of byPosition(vocab.entities, r.text)) {
    if (e.name.length < 2 || !r.takeWord(e.name)) continue;
    const param = NAME_PARAM[e.type];
    r.add(param ?? 'entity.id', param ? e.name : String(e.id));
  }
  for (const c of byPosition(vocab.countries, r.text))
    if (r.takeWord(c.name)) r.add('source.country.code', c.code.toLowerCase());
  for (const [alias, id] of Object.entries(TOPIC_ALIASES))
    if (r.takeWord(alias)) r.add('topic.id', id);
  for (const t of byPosition(vocab.topics, r.text)) if (r.takeWord(t.name)) r.add('topic.id', t.id);
  for (const code of vocab.eventTypes) {
    if (r.takeWord(code.replace(/-/g, ' ')) || r.takeWord(code)) r.add('event.type', code);
  }
  // Categories by any word of their name ("sport", "politics", "business").
  for (const c of vocab.categories) {
    for (const word of c.name.split(/,\s*|\s+and\s+/)) {
      if (word.length > 2 && (r.takeWord(word) || r.takeWord(`${word}s`)))
        r.add('category.id', categorySlug(c.id));
    }
  }

  // Capitalised words left over (runs broken by punctuation) look like names the mock does not know.
  for (const m of r.original.matchAll(
    /\p{Lu}[\p{L}\p{N}'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}'’-]*)*/gu,
  )) {
    const words = m[0].split(/[ \t]+/).filter((w) => !NOT_NAMES.has(w.toLowerCase()));
    const first = words[0];
    if (first === undefined) continue;
    const name = words.join(' ');
    const at = m.index + m[0].indexOf(first);
    if (name.length < 2 || r.text.slice(at, at + first.length).trim() === '') continue;
    r.ignored.push({ field: 'entity.id', value: name, reason: 'not_found' });
  }
  return { params: r.params, ignored: r.ignored };
}

/** The cache key of a wording: case and spacing do not make a prompt new. */
export function promptKey(prompt: string): string {
  return prompt.trim().toLowerCase().replace(/\s+/g, ' ');
}
