/**
 * Every limit a hand-written doc states ("at most 100 ids", "up to 8") is
 * the code's: each is read from the doc and compared with the constant it
 * describes. Docs generated from the code (PARAMETERS.md, HELP-TOPICS.md,
 * news.1) are checked by their own drift tests. A new "at most N" / "up to
 * N" / "max N" in a hand-written doc fails the last test until it is added
 * to LIMITS (with the code's constant) or to NOT_LIMITS (with the reason).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX, DEFAULT_START } from '../src/api/paging/concurrency.js';
import { MAX_RECONNECT_DELAY_MS } from '../src/api/stream/stream-session.js';
import { LIMIT_MAX } from '../src/cli/mcp/schema.js';
import { MAX_JSON_DEPTH } from '../src/mock/json-limits.js';
import { PIECE_ARTICLES } from '../src/mock/stream-feed.js';
import { JOURNAL_MAX_ENTRIES, JOURNAL_TEXT_BYTES } from '../src/mock/stream-journal.js';
import { SUGGEST_LIMIT } from '../src/mock/suggest.js';
import { MAX_BATCH } from '../src/mock/webhook-dispatcher.js';
import { ARTICLE_IDS_MAX } from '../src/params/article-params.js';
import { SEARCH_PARAMS } from '../src/params/search-params.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/**
 * A constant the module does not export, read from its source: `const NAME =
 * <number expression>;` (digits, `_`, `*`, spaces only).
 */
function constantIn(path: string, name: string): number {
  const found = new RegExp(`const ${name} = ([0-9_* ]+);`).exec(read(path));
  if (found === null) throw new Error(`${name} not found in ${path}`);
  return found[1]!
    .split('*')
    .map((n) => Number(n.trim().replaceAll('_', '')))
    .reduce((a, b) => a * b, 1);
}

const MB = 1024 * 1024;
const articleIdList = SEARCH_PARAMS.find((p) => p.name === 'article.id')?.list;

/** [doc, a pattern whose group is the stated number, the code's value]. */
const LIMITS: [string, RegExp, () => number][] = [
  ['docs/COMMANDS.md', /`article IDS`.*at most (\d+) ids/, () => ARTICLE_IDS_MAX],
  ['README.md', /`article IDS`.*at most (\d+) ids/, () => ARTICLE_IDS_MAX],
  ['docs/ARCHITECTURE.md', /`news article`\*\* takes up to (\d+) ids/, () => ARTICLE_IDS_MAX],
  ['docs/ARCHITECTURE.md', /the (\d+)-id limit is the search filter/, () => articleIdList!],
  ['docs/MOCK.md', /`id` \(or `ids`\) takes up to (\d+) ids/, () => ARTICLE_IDS_MAX],
  ['docs/MOCK.md', /`article.id` max (\d+);/, () => articleIdList!],
  ['docs/MOCK.md', /`id` max (\d+) \|/, () => ARTICLE_IDS_MAX],
  ['docs/MCP.md', /`get_articles`.*`ids` \(at most (\d+)\)/, () => ARTICLE_IDS_MAX],
  [
    'docs/MCP.md',
    /`limit`: the records a call returns, default \d+, at most (\d+)/,
    () => LIMIT_MAX,
  ],
  [
    'docs/MCP.md',
    /enum \(up to (\d+) values\)/,
    () => constantIn('src/cli/mcp/schema.ts', 'ENUM_LIMIT'),
  ],
  [
    'docs/MCP.md',
    /enums of up to (\d+) values/,
    () => constantIn('src/cli/mcp/schema.ts', 'ENUM_LIMIT'),
  ],
  [
    'docs/MCP.md',
    /`news:\/\/exports\/NAME`.*at most (\d+) MB/,
    () => constantIn('src/cli/mcp/resources.ts', 'MAX_READ_BYTES') / MB,
  ],
  ['docs/CRON.md', /as are in flight, one more, up to (\d+);/, () => DEFAULT_MAX],
  ['docs/CRON.md', /\(adaptive, up to (\d+)\)/, () => DEFAULT_MAX],
  ['README.md', /opens at \d+ once the export .* goes up to (\d+) while/, () => DEFAULT_MAX],
  ['README.md', /opens at (\d+) once the export/, () => DEFAULT_START],
  ['README.md', /default one per core up to (\d+);/, () => defaultJobsCap()],
  ['docs/OUTPUT.md', /\(default: one per core, at most (\d+)\)/, () => defaultJobsCap()],
  [
    'docs/MOCK.md',
    /shown last, up to (\d+) MB/,
    () => constantIn('src/mock/store/article-json.ts', 'CACHE_BYTES') / MB,
  ],
  ['docs/MOCK.md', /returns a bare array \(at most (\d+)\)/, () => SUGGEST_LIMIT],
  [
    'docs/MOCK.md',
    /\(at most (\d+) months back\)/,
    () => constantIn('src/mock/coverage.ts', 'TIMELINE_MONTHS'),
  ],
  ['docs/MOCK.md', /at most (\d+) levels/, () => MAX_JSON_DEPTH],
  [
    'docs/MOCK.md',
    /answer body is read and discarded \(at most (\d+) KB\)/,
    () => constantIn('src/mock/webhook-dispatcher.ts', 'MAX_RESPONSE_BYTES') / 1024,
  ],
  [
    'docs/DATABASES.md',
    /a page of the service's answer, or ([\d,]+)\s+records for `convert`/,
    () => constantIn('src/cli/commands/convert.ts', 'CONVERT_BATCH'),
  ],
  ['docs/STREAMS.md', /double it, up to (\d+) s/, () => MAX_RECONNECT_DELAY_MS / 1000],
  ['docs/STREAMS.md', /the waits double up to (\d+) s/, () => MAX_RECONNECT_DELAY_MS / 1000],
  ['docs/STREAMS.md', /\(up to ([\d,]+) articles, 24 hours\)/, () => JOURNAL_MAX_ENTRIES],
  ['docs/MOCK.md', /and at\s+most ([\d,]+), and the JSON text/, () => JOURNAL_MAX_ENTRIES],
  ['docs/MOCK.md', /the newest articles up to (\d+) MB/, () => JOURNAL_TEXT_BYTES / MB],
  ['docs/MOCK.md', /\(at most (\d+) articles a write\)/, () => PIECE_ARTICLES],
  ['docs/WEBHOOKS.md', /a signed `POST` of at most (\d+) articles/, () => MAX_BATCH],
  [
    'docs/COMPLETION.md',
    /at most (\d+) values per/,
    () => constantIn('src/cli/completion/cache.ts', 'MAX_PER_KEY'),
  ],
];

/** Phrases that read like a limit and are not one of ours, and why. */
const NOT_LIMITS: [string, RegExp, string][] = [
  ['docs/CRON.md', /published up to 10:00/, 'a time of day in an example'],
  ['docs/CRON.md', /a single copy is limited to 5 GB/, "S3's limit, not ours"],
  ['docs/QUERY-LANGUAGE.md', /at most 5 words between/, 'what `~5` in the example means'],
  ['docs/ROBUSTNESS.md', /strings up to 300 KB/, "the fuzz test's generator, not a limit"],
  ['docs/ROBUSTNESS.md', /of up to 7 values with/, "the fuzz test's generator, not a limit"],
  [
    'docs/PARQUET.md',
    /numbers of up to 15 digits/,
    'the digits a double keeps exactly, not a setting',
  ],
];

/** convert's default `--jobs`: one per core, capped (src/cli/commands/convert.ts). */
function defaultJobsCap(): number {
  const found = /Math\.min\(availableParallelism\(\), (\d+)\)/.exec(
    read('src/cli/commands/convert.ts'),
  );
  if (found === null) throw new Error("convert's default --jobs not found");
  return Number(found[1]);
}

const HAND_WRITTEN = [
  'README.md',
  ...[
    'ARCHITECTURE',
    'COMMANDS',
    'COMPLETION',
    'CRON',
    'MCP',
    'MOCK',
    'OUTPUT',
    'PARQUET',
    'QUERY-LANGUAGE',
    'ROBUSTNESS',
    'STREAMS',
    'WEBHOOKS',
  ].map((d) => `docs/${d}.md`),
];

describe('the limits the docs state', () => {
  it.each(LIMITS.map(([doc, pattern, value]) => [doc, pattern.source, pattern, value] as const))(
    '%s: /%s/ is the code',
    (doc, _, pattern, value) => {
      const found = pattern.exec(read(doc));
      expect(found, `${doc} no longer says ${pattern}`).not.toBeNull();
      expect(Number(found![1]!.replaceAll(',', ''))).toBe(value());
    },
  );

  it('every "at most N", "up to N", "max N" of a hand-written doc is checked above or said not to be a limit', () => {
    const unchecked: string[] = [];
    for (const doc of HAND_WRITTEN) {
      const lines = read(doc).split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/\b(?:at most|up to|max|limited to|no more than) \d/g)) {
          const around = line.slice(Math.max(0, m.index - 80), m.index + 60);
          const covered = [...LIMITS, ...NOT_LIMITS].some(
            ([d, pattern]) => d === doc && pattern.test(line),
          );
          if (!covered) unchecked.push(`${doc}:${i + 1}: …${around}…`);
        }
      });
    }
    expect(unchecked).toEqual([]);
  });
});
