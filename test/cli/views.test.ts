import { describe, expect, it } from 'vitest';
import { bar, sparkline, splitBar } from '../../src/cli/views/bars.js';
import stringWidth from 'string-width';
import { renderProfileCard } from '../../src/cli/views/profile-card.js';
import { rankedTable } from '../../src/cli/views/ranked-table.js';
import { alignedBuckets } from '../../src/cli/views/time-axis.js';
import { renderTrends, trendGroups } from '../../src/cli/views/trends-chart.js';
import { PROFILE } from './profile-fixture.js';
import { TRENDS_SAMPLE } from '../helpers/samples.js';

// The views draw no colour; stripping ANSI anyway keeps these tests honest if they ever do.
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('bars', () => {
  it.each([
    [0, 10, 10, ''],
    [10, 10, 10, '██████████'],
    [5, 10, 10, '█████'],
    [1, 16, 4, '▎'],
    [20, 10, 4, '████'],
  ])('bar(%d, %d, %d)', (value, max, width, expected) => {
    expect(bar(value, max, width)).toBe(expected);
  });

  it('sparkline scales to the largest value; zero is blank', () => {
    expect(sparkline([0, 1, 2, 4, 8])).toBe(' ▁▂▄█');
    expect(sparkline([3, 3])).toBe('██');
  });

  it('splitBar fills exactly the width and keeps every share visible', () => {
    const b = splitBar(
      [
        { value: 98, fill: '+' },
        { value: 1, fill: '.' },
        { value: 1, fill: '-' },
      ],
      10,
    );
    expect(b).toHaveLength(10);
    expect(b).toBe('++++++++.-');
  });
});

describe('profile card', () => {
  it('renders a person at 72 columns', () => {
    expect(plain(renderProfileCard(PROFILE, 'people', 72))).toMatchInlineSnapshot(`
      "Ada Example · person · id 42
      ────────────────────────────
      Title        Chief executive
      Nationality  Kenya
      Born         1970-01-02
      Articles     /v1/news/entity/42
      Profile      /v1/people/42

      Coverage
        Articles   120 · first seen 2025-01-03, last seen 2026-11-20
        Sentiment  ████████████████████▒▒▒▒▒▒▒▒▒▒░░░░░░░░░░
                   █ positive 60 (50%) ▒ neutral 30 (25%) ░ negative 30 (25%)
        Momentum   30 in the last 30 days, 20 in the 30 before (+50% ▲)
        Timeline   ▂█▄
                   2026-09 → 2026-11 · peak 40 in 2026-10

        Top sources
          Daily                             daily.example  12  ██████████████

        Top topics
          Interest Rates                    9  ██████████████

        Top countries
          Kenya                             KE  7  ██████████████

        Top languages
          English                           en  100  ██████████████

        Related entities
          Acme                              5  ██████████████

      Recent articles
        2026-11-20  Ada opens a factory — daily.example
      "
    `);
  });

  it('renders a journalist with outlets and the merged-by-name caveat', () => {
    const journalist = {
      id: 7,
      name: 'Laura Morgan',
      outlet_count: 9,
      outlets: [
        { id: 1, name: 'Boston Times', domain: 'boston.example' },
        { id: 2, name: 'Kent Gazette', domain: 'kent.example' },
      ],
      links: { self: '/v1/journalists/7', articles: '/v1/news/everything?author.id=7' },
      coverage: { article_count: 3, top_entities: [{ id: 1, name: 'Acme', count: 2 }] },
    };
    expect(plain(renderProfileCard(journalist, 'journalists', 60))).toMatchInlineSnapshot(`
      "Laura Morgan · journalist · id 7
      ────────────────────────────────
      Outlets   9: boston.example, kent.example, and 7 more
      Articles  /v1/news/everything?author.id=7
      Profile   /v1/journalists/7

      Coverage
        Articles   3

        Top entities
          Acme                              2  ███████████

      Note  Journalists are merged by exact name: the counts above
            include every byline "Laura Morgan", while \`news
            journalists articles 7\` (links.articles) searches this
            one author record and may find fewer.
      "
    `);
  });

  it('survives a profile with nothing but a name, and strips terminal escapes', () => {
    expect(renderProfileCard({ name: 'Evil\x1b]0;owned\x07 Name' }, 'companies', 40)).toBe(
      // The whole OSC sequence goes, not only its ESC and BEL (terminal-safe.ts).
      'Evil Name\n────────────────────\n',
    );
  });
});

describe('ranked lists and recent articles measure terminal columns', () => {
  it('CJK labels take two columns each: the counts stay in one column, cut labels too', () => {
    const rows = [
      { label: '京都経済新聞', extra: 'kyoto-daily.jp', count: 3 },
      { label: 'Daily', extra: 'daily.example', count: 12 },
      { label: '😀 Emoji news', extra: 'e.example', count: 1 },
    ];
    for (const width of [40, 72]) {
      const lines = rankedTable('Top sources', rows, width).slice(1);
      const countEnds = lines.map((l) => stringWidth(l.replace(/ +[▏▎▍▌▋▊▉█]+$/, '')));
      expect(new Set(countEnds), lines.join('\n')).toEqual(new Set([countEnds[0]]));
    }
    expect(rankedTable('Top sources', rows, 40)[1]).toMatch(/^ {2}京都経… +kyoto-daily\.jp/);
  });

  it('a recent article line fills the room to the column, and its date is sanitised', () => {
    const card = renderProfileCard(
      {
        name: 'A',
        recent_articles: [
          {
            title: '東京'.repeat(40),
            published_at: '2026\x1b[2J-11-20',
            source: { domain: 'x.example' },
          },
        ],
      },
      'people',
      60,
    );
    const line = card.trimEnd().split('\n').at(-1)!;
    expect(line).not.toContain('\x1b');
    expect(line).toMatch(/^ {2}2026-11-20 {2}東京.*… — x\.example$/);
    // 東京 are two columns each: the cut leaves one column blank rather than overflow.
    expect(stringWidth(line)).toBeGreaterThanOrEqual(59);
    expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });
});

describe('trends chart', () => {
  const single = {
    ...TRENDS_SAMPLE,
    trends: [...TRENDS_SAMPLE.trends, { value: 'plain value', count: 12 }],
  };

  it('renders one field at 70 columns', () => {
    expect(plain(renderTrends(trendGroups(single), 70))).toMatchInlineSnapshot(`
      "entity.id · 1,240 values · 58,213 articles
        SpaceX           organization  342  0.59%  2.15/h  █████████████████
        Elon Musk        person        218  0.37%  1.45/h  ██████████▉
        plain value                     12                 ▋
      "
    `);
  });

  it('renders several fields, buckets as sparklines and comparisons as changes', () => {
    const multi = {
      trends: {
        'topic.id': {
          total_count: 2,
          trends: [
            {
              value: { name: 'Rates' },
              count: 9,
              change_percent: 50,
              buckets: { '2026-11-01': 1, '2026-11-02': 4, '2026-11-03': 8 },
            },
            {
              value: { name: 'Courts' },
              count: 3,
              change_percent: -12.5,
              buckets: { '2026-11-01': 2, '2026-11-02': 0, '2026-11-03': 1 },
            },
          ],
        },
        'source.id': { trends: [] },
      },
    };
    expect(plain(renderTrends(trendGroups(multi), 60))).toMatchInlineSnapshot(`
      "topic.id · 2 values
        Rates                             9  +50%  ▁▄█
        Courts                            3  -12%  █ ▄

      source.id
        (no values)
      "
    `);
  });
});

describe('trends sparklines line up in time', () => {
  const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T00:00:00.000Z`;
  // As the service (and the mock) answer: only the days that have articles.
  const sparse = {
    field: 'source.id',
    time_bucket: 'day',
    trends: [
      {
        value: { name: 'Austin' },
        count: 6,
        buckets: { [day(18)]: 2, [day(19)]: 2, [day(22)]: 2 },
      },
      { value: { name: 'Atlanta' }, count: 4, buckets: { [day(20)]: 2, [day(22)]: 2 } },
      { value: { name: 'Valencia' }, count: 1, buckets: { [day(24)]: 1 } },
    ],
  };

  it('every row spans the same days, a day without articles drawn empty', () => {
    // 18 … 24: seven days, each in the same column on every row.
    expect(plain(renderTrends(trendGroups(sparse), 60))).toMatchInlineSnapshot(`
      "source.id
        Austin                                6  ██  █
        Atlanta                               4    █ █
        Valencia                              1        █
      "
    `);
  });

  it('steps hours, weeks and months; keys that are not dates share their sorted union', () => {
    const rows = (buckets: Record<string, number>[]) => buckets.map((b) => ({ buckets: b }));
    expect(
      alignedBuckets(rows([{ '2026-11-01T00:00:00Z': 1 }, { '2026-11-01T03:00:00Z': 2 }]), 'hour'),
    ).toEqual([
      [1, 0, 0, 0],
      [0, 0, 0, 2],
    ]);
    expect(alignedBuckets(rows([{ '2026-01-01': 1 }, { '2026-03-01': 1 }]), 'month')).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ]);
    expect(alignedBuckets(rows([{ '2026-11-02': 3 }, { '2026-11-16': 1 }]), 'week')).toEqual([
      [3, 0, 0],
      [0, 0, 1],
    ]);
    expect(alignedBuckets([...rows([{ b: 1 }, { a: 2, c: 1 }]), { count: 3 }], undefined)).toEqual([
      [0, 1, 0],
      [2, 0, 1],
      undefined,
    ]);
  });
});

describe('no line of a view is wider than the terminal', () => {
  const wide = (text: string, width: number) =>
    plain(text)
      .split('\n')
      .filter((line) => stringWidth(line) > width);
  const longTrends = {
    trends: {
      'entity.id': {
        total_count: 1_234_567,
        total_articles: 98_765_432,
        trends: [
          {
            value: {
              name: 'Organisation of the Petroleum Exporting Countries',
              type: 'organization',
            },
            count: 1_234_567,
            percentage: 12.79,
            change_percent: -1234.5,
            buckets: Object.fromEntries(
              Array.from({ length: 40 }, (_, i) => [`2026-10-${String(i).padStart(2, '0')}`, i]),
            ),
          },
          { value: { name: '京都経済新聞社の記者', type: 'person' }, count: 59, growth_rate: 0.08 },
        ],
      },
      'source.id': {
        trends: [{ value: 'liberty-business-review-international.com', count: 4 }],
      },
    },
  };
  const profile = {
    ...PROFILE,
    coverage: {
      ...PROFILE.coverage,
      momentum: { last_30_days: 1_234_567, previous_30_days: 1_000_000, change_pct: 3300 },
      top_sources: [
        {
          name: 'Liberty Business Review',
          domain: 'liberty-business-review-international.com',
          count: 1_234,
        },
        { name: '京都経済新聞', domain: 'kyoto-daily.jp', count: 3 },
      ],
    },
  };

  it('trends, profile cards and ranked tables at every width from 30 to 120', () => {
    for (let width = 30; width <= 120; width++) {
      for (const body of [TRENDS_SAMPLE, longTrends]) {
        expect(wide(renderTrends(trendGroups(body), width), width), `trends at ${width}`).toEqual(
          [],
        );
      }
      for (const kind of ['people', 'companies', 'journalists'] as const) {
        expect(wide(renderProfileCard(profile, kind, width), width), `${kind} at ${width}`).toEqual(
          [],
        );
      }
    }
  });

  it('a narrow trends row keeps label and count: the chart goes first', () => {
    const lines = plain(renderTrends(trendGroups(TRENDS_SAMPLE), 34)).split('\n');
    expect(lines[1]).toMatch(/^ {2}SpaceX\s+.*342/);
    expect(lines[1]).not.toMatch(/█/);
    expect(plain(renderTrends(trendGroups(TRENDS_SAMPLE), 80))).toMatch(/█/);
  });

  it('news --mock trends and people get at COLUMNS=60 and 40', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const id = JSON.parse(
      (await runCli(['--mock', 'people', '-f', 'jsonl', '--limit', '1'])).stdout,
    ) as { id: number };
    for (const width of [60, 40]) {
      const env = { COLUMNS: String(width) };
      const trends = await runCli(
        ['--mock', 'trends', '--field', 'entity.id,source.id', '-f', 'table'],
        { env },
      );
      expect(trends.code, trends.stderr).toBe(0);
      expect(wide(trends.stdout, width)).toEqual([]);
      const card = await runCli(['--mock', 'people', 'get', String(id.id), '-f', 'table'], { env });
      expect(card.code, card.stderr).toBe(0);
      expect(card.stdout).toContain('Momentum');
      expect(wide(card.stdout, width)).toEqual([]);
    }
  });
});
