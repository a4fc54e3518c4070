/**
 * The terminal view of a directory profile (people, companies, journalists):
 * who it is, then the coverage block drawn, then the latest articles. Pure:
 * (profile JSON, width) → text; `--section` and `-f` give the data itself.
 */
import { drawRows, fitText, textWidth } from '../../output/formats/table-draw.js';
import { terminalSafe, thousands } from '../../output/text.js';
import { type Share, formatChange, sparkline, splitBar } from './bars.js';
import { type RankedRow, rankedTable } from './ranked-table.js';
import { type Json, arr, label, num, obj, str } from './read.js';
import { MIN_WIDTH, fieldLines } from './text-layout.js';

export type DirectoryKind = 'people' | 'companies' | 'journalists';

/** Profile fields the specification names, in reading order, with their labels. */
const PERSON_FIELDS: readonly (readonly [string, string])[] = [
  ['title', 'Title'],
  ['nationality', 'Nationality'],
  ['date_of_birth', 'Born'],
  ['gender', 'Gender'],
  ['bio_summary', 'About'],
];
const COMPANY_FIELDS: readonly (readonly [string, string])[] = [
  ['description', 'About'],
  ['website_url', 'Website'],
  ['headquarters', 'Headquarters'],
  ['founded', 'Founded'],
];
const SENTIMENT_FILL = { positive: '█', neutral: '▒', negative: '░' } as const;
/** `YYYY-MM-DD`. */
const DATE_WIDTH = 10;

export function renderProfileCard(profile: Json, kind: DirectoryKind, width: number): string {
  const w = Math.max(MIN_WIDTH, width);
  const lines: string[] = [...header(profile, kind, w), ...identity(profile, kind, w)];
  const coverage = obj(profile['coverage']);
  if (coverage) lines.push('', ...coverageLines(coverage, kind, w));
  const recent = arr(profile['recent_articles'])
    .map(obj)
    .filter((a): a is Json => a !== undefined);
  if (recent.length > 0) lines.push('', ...recentLines(recent, w));
  if (kind === 'journalists') lines.push('', ...journalistCaveat(profile, w));
  return `${lines.join('\n')}\n`;
}

function header(profile: Json, kind: DirectoryKind, width: number): string[] {
  const name = str(profile['name']) ?? '(no name)';
  const type = str(profile['type']) ?? (kind === 'journalists' ? 'journalist' : undefined);
  const tags = [
    type,
    profile['id'] === undefined ? undefined : `id ${String(profile['id'])}`,
  ].filter(Boolean);
  const title = fitText(`${name}${tags.length > 0 ? ` · ${tags.join(' · ')}` : ''}`, width);
  return [title, '─'.repeat(Math.min(width, Math.max(textWidth(title), 20)))];
}

function identity(profile: Json, kind: DirectoryKind, width: number): string[] {
  const rows: [string, string][] = [];
  const details = obj(profile['profile']) ?? {};
  const known = kind === 'people' ? PERSON_FIELDS : kind === 'companies' ? COMPANY_FIELDS : [];
  for (const [key, name] of known) {
    const value = str(details[key]);
    if (value !== undefined) rows.push([name, value]);
  }
  if (kind === 'companies') {
    const owner = label(details['brand_owner']);
    if (owner !== undefined) rows.push(['Brand owner', owner]);
    const people = arr(details['key_people'])
      .map(obj)
      .filter((p): p is Json => p !== undefined)
      .map((p) => [str(p['name']), str(p['role'])].filter(Boolean).join(', '))
      .filter((t) => t !== '');
    if (people.length > 0) rows.push(['Key people', people.join('; ')]);
    const subsidiaries = arr(details['subsidiaries']).map(label).filter(Boolean);
    if (subsidiaries.length > 0) rows.push(['Subsidiaries', subsidiaries.join(', ')]);
  }
  const social = obj(details['social_profiles']);
  for (const [network, url] of Object.entries(social ?? {})) {
    const text = str(url);
    if (text !== undefined) rows.push([capitalise(network), text]);
  }
  const wikidataId = str(details['wikidata_id']);
  if (wikidataId !== undefined) rows.push(['Wikidata id', wikidataId]);
  if (kind === 'journalists') rows.push(...outletRows(profile));
  const links = obj(profile['links']) ?? {};
  for (const key of ['wikipedia', 'wikidata', 'articles', 'self']) {
    const url = str(links[key]);
    if (url !== undefined) rows.push([key === 'self' ? 'Profile' : capitalise(key), url]);
  }
  return fieldLines(rows, width);
}

function outletRows(profile: Json): [string, string][] {
  const outlets = arr(profile['outlets'])
    .map(obj)
    .filter((o): o is Json => o !== undefined);
  const total = num(profile['outlet_count']) ?? outlets.length;
  if (total === 0) return [];
  const names = outlets.slice(0, 6).map((o) => str(o['domain']) ?? str(o['name']) ?? '?');
  const more = total - names.length;
  return [
    [
      'Outlets',
      `${thousands(total)}: ${names.join(', ')}${more > 0 ? `, and ${thousands(more)} more` : ''}`,
    ],
  ];
}

function coverageLines(coverage: Json, kind: DirectoryKind, width: number): string[] {
  const lines = ['Coverage'];
  const count = num(coverage['article_count']);
  const first = str(coverage['first_seen'])?.slice(0, 10);
  const last = str(coverage['last_seen'])?.slice(0, 10);
  if (count !== undefined) {
    const span = first && last ? ` · first seen ${first}, last seen ${last}` : '';
    lines.push(`  Articles   ${fitText(`${thousands(count)}${span}`, width - 13)}`);
  }
  lines.push(...sentimentLines(obj(coverage['sentiment']), width));
  const momentum = obj(coverage['momentum']);
  if (momentum) {
    const recent = num(momentum['last_30_days']) ?? 0;
    const before = num(momentum['previous_30_days']) ?? 0;
    const pct = num(momentum['change_pct']);
    const trend =
      pct === undefined
        ? 'no change figure'
        : `${formatChange(pct)} ${pct > 0 ? '▲' : pct < 0 ? '▼' : '='}`;
    lines.push(
      `  Momentum   ${fitText(`${thousands(recent)} in the last 30 days, ${thousands(before)} in the 30 before (${trend})`, width - 13)}`,
    );
  }
  lines.push(...timelineLines(arr(coverage['timeline']), width));
  const tables: [string, string, (o: Json) => string | undefined][] = [
    ['Top sources', 'top_sources', (o) => str(o['domain'])],
    ['Top topics', 'top_topics', () => undefined],
    ['Top countries', 'top_countries', (o) => str(o['code'])],
    ['Top languages', 'top_languages', (o) => str(o['code'])],
    kind === 'journalists'
      ? ['Top entities', 'top_entities', (o) => str(o['type'])]
      : ['Related entities', 'related_entities', (o) => str(o['type'])],
  ];
  for (const [title, key, extra] of tables) {
    const rowsOf: RankedRow[] = arr(coverage[key])
      .map(obj)
      .filter((o): o is Json => o !== undefined)
      .map((o) => ({ label: label(o) ?? '?', extra: extra(o), count: num(o['count']) ?? 0 }));
    const table = rankedTable(title, rowsOf, width - 2);
    if (table.length > 0) lines.push('', ...table.map((l) => `  ${l}`));
  }
  return lines;
}

function sentimentLines(sentiment: Json | undefined, width: number): string[] {
  if (!sentiment) return [];
  const parts = (['positive', 'neutral', 'negative'] as const).map((k) => ({
    k,
    value: num(sentiment[k]) ?? 0,
  }));
  const total = parts.reduce((s, p) => s + p.value, 0);
  if (total === 0) return ['  Sentiment  no scored articles'];
  const shares: Share[] = parts.map((p) => ({ value: p.value, fill: SENTIMENT_FILL[p.k] }));
  const legend = parts
    .map(
      (p) =>
        `${SENTIMENT_FILL[p.k]} ${p.k} ${thousands(p.value)} (${Math.round((p.value / total) * 100)}%)`,
    )
    .join('  ');
  return [
    `  Sentiment  ${splitBar(shares, Math.max(10, Math.min(40, width - 13)))}`,
    `             ${fitText(legend, width - 13)}`,
  ];
}

function timelineLines(timeline: unknown[], width: number): string[] {
  const points = timeline
    .map(obj)
    .filter((p): p is Json => p !== undefined)
    .map((p) => ({ period: str(p['period']) ?? '?', count: num(p['count']) ?? 0 }));
  if (points.length === 0) return [];
  const room = Math.max(8, width - 13);
  const shown = points.slice(-room);
  const peak = shown.reduce((a, b) => (b.count > a.count ? b : a));
  const first = shown[0]!.period;
  const last = shown[shown.length - 1]!.period;
  return [
    `  Timeline   ${sparkline(shown.map((p) => p.count))}`,
    `             ${fitText(`${first} → ${last} · peak ${thousands(peak.count)} in ${peak.period}`, room)}`,
  ];
}

function recentLines(articles: readonly Json[], width: number): string[] {
  const room = width - 2 - DATE_WIDTH - 2;
  const rows = articles.map((a) => {
    const source = str(obj(a['source'])?.['domain']);
    const title = terminalSafe(str(a['title']) ?? '(untitled)');
    const tail = source ? ` — ${terminalSafe(source)}` : '';
    // The source stays whole when the title can be cut to make room for it.
    const text =
      textWidth(title) + textWidth(tail) <= room
        ? `${title}${tail}`
        : `${fitText(title, Math.max(10, room - textWidth(tail)))}${tail}`;
    return [terminalSafe(str(a['published_at']) ?? '').slice(0, DATE_WIDTH), text];
  });
  const columns = [
    { width: DATE_WIDTH, align: 'left' },
    { width: room, align: 'left' },
  ] as const;
  return ['Recent articles', ...drawRows(columns, rows).map((l) => `  ${l}`)];
}

/** The specification's caveats about journalist records, where they change what a number means. */
function journalistCaveat(profile: Json, width: number): string[] {
  const name = str(profile['name']) ?? 'this name';
  const id = profile['id'] === undefined ? 'ID' : String(profile['id']);
  const text = `Journalists are merged by exact name: the counts above include every byline "${name}", while \`news journalists articles ${id}\` (links.articles) searches this one author record and may find fewer.`;
  return fieldLines([['Note', text]], width);
}

function capitalise(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1).replace(/_/g, ' ');
}
