/**
 * Every format written from the tricky records and read back by an
 * independent reader (papaparse, fast-xml-parser plus a strict character
 * check, exceljs, DuckDB), plus golden files for the text formats.
 * UPDATE_GOLDEN=1 rewrites the goldens.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import { rssItem } from '../../src/output/formats/rss.js';
import { escapeTsv } from '../../src/output/formats/tsv.js';
import type { FormatName } from '../../src/output/types.js';
import { exportToFile } from './helpers.js';
import { TRICKY_ARTICLES, TRICKY_JOURNALISTS, TRICKY_PEOPLE } from './tricky-records.js';

const GOLDEN = join(import.meta.dirname, '..', 'golden');
const HEADER = ARTICLE_COLUMNS.map((c) => c.name);
const XML_ILLEGAL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, actual);
  expect(existsSync(path), `${name} missing: run with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

function unescapeTsv(s: string): string {
  return s.replace(
    /\\([tnr\\])/g,
    (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c]!,
  );
}

describe.each<[FormatName, string]>([
  ['json', 'articles.json'],
  ['jsonl', 'articles.jsonl'],
  ['csv', 'articles.csv'],
  ['tsv', 'articles.tsv'],
  ['xml', 'articles.xml'],
  ['rss', 'articles.rss'],
  ['table', 'articles.table.txt'],
])('%s golden', (format, file) => {
  it('matches the golden file', async () => {
    const { path } = await exportToFile(format, TRICKY_ARTICLES);
    golden(file, readFileSync(path, 'utf8'));
  });
});

describe('json and jsonl', () => {
  it('json is a parseable array equal to the input', async () => {
    const { path } = await exportToFile('json', TRICKY_ARTICLES);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(TRICKY_ARTICLES);
  });
  it('jsonl and ndjson hold one record per line', async () => {
    for (const format of ['jsonl', 'ndjson'] as const) {
      const { path } = await exportToFile(format, TRICKY_ARTICLES);
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      expect(lines.map((l) => JSON.parse(l))).toEqual(TRICKY_ARTICLES);
    }
  });
  it('an empty result is an empty array', async () => {
    const { path } = await exportToFile('json', []);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual([]);
  });
});

describe('csv', () => {
  it('reads back with papaparse, cell for cell', async () => {
    const { path } = await exportToFile('csv', TRICKY_ARTICLES);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('\r\n');
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual(HEADER);
    expect(rows).toHaveLength(5);
    const col = (name: string): number => HEADER.indexOf(name);
    expect(rows[0]![col('title')]).toBe(TRICKY_ARTICLES[0]!['title']);
    expect(rows[0]![col('sentiment.overall.score')]).toBe('-0.42');
    expect(rows[0]![col('entities.names')]).toBe('Acme; Inc; Zoë');
    expect(JSON.parse(rows[0]![col('entities')]!)).toEqual(TRICKY_ARTICLES[0]!['entities']);
    expect(rows[0]![col('is_free')]).toBe('true');
    expect(rows[1]![col('title')]).toBe(TRICKY_ARTICLES[1]!['title']);
    expect(rows[1]![col('source.rank.opr')]).toBe('7'); // OpenAPI's `rankings` spelling
    expect(rows[1]![col('author.name')]).toBe('');
    expect(rows[1]![col('entities')]).toBe('[]');
    // formulas neutralised, plain numbers as text untouched
    expect(rows[2]![col('title')]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(rows[2]![col('description')]).toBe("'+1 plus");
    expect(rows[2]![col('body')]).toBe("'-2 minus");
    expect(rows[2]![col('author.name')]).toBe("'@mention");
    expect(rows[2]![col('source.domain')]).toBe("'\tleading-tab.example");
    expect(rows[2]![col('keywords')]).toBe("'=cmd; -0.42");
    expect(rows[3]![col('description')]).toBe("'\rstarts with CR");
    // CSV keeps long cells whole
    expect(rows[3]![col('body')]).toBe(TRICKY_ARTICLES[3]!['body']);
    expect(rows[4]![col('title')]).toBe('');
  });
  it('--no-sanitize keeps formulas as they are', async () => {
    const { path } = await exportToFile('csv', TRICKY_ARTICLES, { sanitize: false });
    const rows = Papa.parse<string[]>(readFileSync(path, 'utf8'), { skipEmptyLines: true }).data;
    expect(rows[3]![HEADER.indexOf('title')]).toBe('=HYPERLINK("http://evil.example","click")');
  });
  it('.csv.gz is gzipped and holds the same CSV', async () => {
    const plain = readFileSync((await exportToFile('csv', TRICKY_ARTICLES)).path);
    const { path } = await exportToFile('csv', TRICKY_ARTICLES, { ext: 'csv.gz' });
    const gz = readFileSync(path);
    expect(gz[0]).toBe(0x1f);
    expect(gunzipSync(gz).equals(plain)).toBe(true);
  });
});

describe('tsv', () => {
  it('one line per record, escapes reversed give the values back', async () => {
    const { path } = await exportToFile('tsv', TRICKY_ARTICLES);
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').filter((l) => l !== '')).toHaveLength(6);
    // quoteChar that never occurs: TSV has no quoting, a leading " is data
    const parsed = Papa.parse<string[]>(text, {
      delimiter: '\t',
      quoteChar: '\u0001',
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual(HEADER);
    for (const row of rows) expect(row).toHaveLength(HEADER.length);
    const title = HEADER.indexOf('title');
    expect(unescapeTsv(rows[0]![title]!)).toBe(TRICKY_ARTICLES[0]!['title']);
    expect(unescapeTsv(rows[1]![title]!)).toBe(TRICKY_ARTICLES[1]!['title']);
    expect(rows[2]![title]!.startsWith("'=")).toBe(true);
    expect(unescapeTsv(rows[2]![HEADER.indexOf('source.domain')]!)).toBe("'\tleading-tab.example");
  });
  it('escapes tab, newline, CR and backslash', () => {
    expect(escapeTsv('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
  });
});

describe('xml and rss', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (n) => ['article', 'item', 'category', 'entity'].includes(n),
  });

  it('xml is well formed, declares its root and has one element per record', async () => {
    const { path } = await exportToFile('xml', TRICKY_ARTICLES);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<articles')).toBe(true);
    expect(XMLValidator.validate(text)).toBe(true);
    expect(XML_ILLEGAL.test(text)).toBe(false);
    const doc = parser.parse(text) as { articles: { article: Record<string, unknown>[] } };
    const articles = doc.articles.article;
    expect(articles).toHaveLength(5);
    expect(articles.map((a) => a['@_id'])).toEqual(['1', '2', '3', '4', '5']);
    expect(articles[1]!['title']).toBe(TRICKY_ARTICLES[1]!['title']);
    expect(articles[3]!['title']).toBe('Control chars: vt bell esc[31m nul end');
    expect(
      (articles[0]!['entities'] as { entity: { name: string }[] }).entity.map((e) => e.name),
    ).toEqual(['Acme; Inc', 'Zoë']);
    expect(articles[1]!['author']).toEqual({ '@_xsi:nil': 'true' });
  });

  it('people get their own root and element', async () => {
    const { path } = await exportToFile('xml', TRICKY_PEOPLE, { kind: 'person' });
    const text = readFileSync(path, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toContain('<people ');
    expect(text.match(/<person id=/g)).toHaveLength(2);
  });

  it('rss is RSS 2.0 with the required channel and item fields', async () => {
    const { path } = await exportToFile('rss', TRICKY_ARTICLES);
    const text = readFileSync(path, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    expect(XML_ILLEGAL.test(text)).toBe(false);
    const doc = parser.parse(text) as {
      rss: { '@_version': string; channel: Record<string, unknown> };
    };
    expect(doc.rss['@_version']).toBe('2.0');
    const channel = doc.rss.channel;
    expect(channel['title']).toBe('news search --title test');
    expect(channel['link']).toBeTruthy();
    const items = channel['item'] as Record<string, unknown>[];
    expect(items).toHaveLength(5);
    expect(items[0]!['pubDate']).toBe('Tue, 04 Mar 2025 05:06:07 GMT');
    expect(items[0]!['link']).toBe('https://example.com/a?x=1&y=2');
    expect(items[0]!['guid']).toEqual({ '#text': '1', '@_isPermaLink': 'false' });
    expect(items[0]!['source']).toEqual({ '#text': 'example.com', '@_url': 'https://example.com' });
    expect((items[0]!['category'] as { '#text': string }[]).map((c) => c['#text'])).toEqual([
      'Business, Finance',
      'Tech "AI"',
    ]);
    const description = String(items[3]!['description'] ?? '');
    expect(description).toBe('starts with CR');
  });

  it('rss warns that --fields does nothing there, once', async () => {
    const { warnings } = await exportToFile('rss', TRICKY_ARTICLES, { fields: ['id', 'title'] });
    expect(warnings).toEqual(['--fields does nothing for -f rss: an RSS item has a fixed shape']);
    expect((await exportToFile('rss', TRICKY_ARTICLES)).warnings).toEqual([]);
  });

  it('rss links are absolute: relative ones resolved against linkBase, else left out', () => {
    const person = { id: 42, name: 'P', links: { self: '/v1/people/42' } };
    expect(rssItem(person, 'https://api.example.com/')['link']).toBe(
      'https://api.example.com/v1/people/42',
    );
    expect(rssItem(person)['link']).toBeUndefined();
    expect(rssItem({ id: 1, href: 'https://a.example/x' })['link']).toBe('https://a.example/x');
    expect(rssItem({ id: 1, href: 'javascript:alert(1)' }, 'https://h/')['link']).toBeUndefined();
  });

  it('rss excerpts are cut without splitting a surrogate pair', async () => {
    const body = 'a'.repeat(498) + '😀' + 'tail';
    const { path } = await exportToFile('rss', [{ id: 9, title: 't', body }]);
    const text = readFileSync(path, 'utf8');
    const item = (parser.parse(text) as { rss: { channel: { item: { description: string }[] } } })
      .rss.channel.item[0]!;
    expect(item.description).toBe('a'.repeat(498) + '…');
    expect(XML_ILLEGAL.test(text)).toBe(false);
  });
});

describe('per-kind columns', () => {
  it('people, journalists and generic records get their own columns', async () => {
    const people = Papa.parse<string[]>(
      readFileSync((await exportToFile('csv', TRICKY_PEOPLE, { kind: 'person' })).path, 'utf8'),
      { skipEmptyLines: true },
    ).data;
    expect(people[0]!.slice(0, 4)).toEqual(['id', 'name', 'type', 'profile.title']);
    expect(people[1]![1]).toBe('Ada, "Countess" Lovelace');
    const journalists = Papa.parse<string[]>(
      readFileSync(
        (await exportToFile('csv', TRICKY_JOURNALISTS, { kind: 'journalist' })).path,
        'utf8',
      ),
      { skipEmptyLines: true },
    ).data;
    expect(journalists[0]).toEqual([
      'id',
      'name',
      'outlet_count',
      'outlets.names',
      'outlets',
      'links.self',
      'links.articles',
    ]);
    expect(journalists[1]![3]).toBe('Daily; News; Weekly');
    const generic = Papa.parse<string[]>(
      readFileSync(
        (
          await exportToFile(
            'csv',
            [
              { a: 1, b: { c: 'x', d: [1, 2] } },
              { e: true, a: 2 },
            ],
            { kind: 'generic' },
          )
        ).path,
        'utf8',
      ),
      { skipEmptyLines: true },
    ).data;
    expect(generic).toEqual([
      ['a', 'b.c', 'b.d', 'e'],
      ['1', 'x', '1; 2', ''],
      ['2', '', '', 'true'],
    ]);
  });
});
