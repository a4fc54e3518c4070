/**
 * "Every format from every list command": each list command, run
 * against the mock server, writes each format to a file (format from the
 * extension), and an independent reader finds the same number of records as
 * the command's JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_DEFAULT_KEY } from '../../src/cli/settings/settings.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../output/helpers.js';

const dir = tempDir();
let db: DuckDBInstance;
// One mock for every run (what `--mock` starts per run), so the 130 runs take seconds.
let server: MockServer;
const mock = (argv: readonly string[]) =>
  runCli([...argv, '--base-url', server.url, '--api-key', MOCK_DEFAULT_KEY]);

beforeAll(async () => {
  [db, server] = await Promise.all([
    DuckDBInstance.create(':memory:'),
    startMockServer({ port: 0, quiet: true }),
  ]);
});
afterAll(async () => {
  db.closeSync();
  await server.close();
});

// Every element an array, so a root with one record reads like one with many.
const xml = new XMLParser({
  ignoreAttributes: false,
  isArray: (_name, _path, _leaf, isAttribute) => isAttribute !== true,
});

/** Records in a file of each format, read back by a reader that is not ours. */
const readers: Record<string, (path: string) => Promise<number>> = {
  json: async (path) => (JSON.parse(readFileSync(path, 'utf8')) as unknown[]).length,
  jsonl: async (path) => lines(path).map((l) => JSON.parse(l)).length,
  ndjson: async (path) => lines(path).map((l) => JSON.parse(l)).length,
  csv: async (path) => {
    const parsed = Papa.parse(readFileSync(path, 'utf8'), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    return parsed.data.length - 1;
  },
  tsv: async (path) => lines(path).length - 1,
  xml: async (path) => {
    const text = readFileSync(path, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = xml.parse(text) as Record<string, Record<string, unknown>[]>;
    const root = Object.entries(doc).find(([k]) => !k.startsWith('?'))![1][0]!;
    const elements = Object.entries(root).filter(([k]) => !k.startsWith('@_'));
    return elements.reduce((n, [, v]) => n + (v as unknown[]).length, 0);
  },
  rss: async (path) => {
    const text = readFileSync(path, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    return (text.match(/<item>/g) ?? []).length;
  },
  xlsx: async (path) => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    return wb.worksheets[0]!.rowCount - 1;
  },
  parquet: async (path) => {
    const con = await db.connect();
    const reader = await con.runAndReadAll(`SELECT count(*) FROM '${path}'`);
    con.closeSync();
    return Number(reader.getRows()[0]![0]);
  },
};

function lines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

async function firstId(argv: string[]): Promise<string> {
  const r = await mock([...argv, '--limit', '1', '-f', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return String((JSON.parse(r.stdout) as { id: number }[])[0]!.id);
}

interface Ids {
  article: string;
  person: string;
}

const commands: [string, (ids: Ids) => string[]][] = [
  ['search', () => ['search', '--language-code', 'en', '--limit', '7']],
  ['headlines', () => ['headlines', '--limit', '5']],
  ['story', (ids) => ['story', ids.article, '--limit', '3']],
  ['article', (ids) => ['article', ids.article]],
  ['local', () => ['local', '--location-name', 'paris', '--resolve', '--limit', '4']],
  ['entity', (ids) => ['entity', ids.person, '--limit', '3']],
  ['people', () => ['people', '--limit', '4']],
  ['companies', () => ['companies', '--limit', '4']],
  ['journalists', () => ['journalists', '--limit', '4']],
  ['suggest', () => ['suggest', 'entities', 'par']],
  ['trends', () => ['trends', '--field', 'entity.id']],
  ['event-types', () => ['event-types']],
];

describe('every list command writes every format', () => {
  let ids: Ids;
  beforeAll(async () => {
    ids = { article: await firstId(['headlines']), person: await firstId(['people']) };
  });

  it.each(commands)('%s', async (name, build) => {
    const argv = build(ids);
    const json = await mock([...argv, '-f', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const count = (JSON.parse(json.stdout) as unknown[]).length;
    expect(count).toBeGreaterThan(0);
    for (const [format, read] of Object.entries(readers)) {
      const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.${format}`);
      const r = await mock([...argv, '-o', path]);
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      expect(await read(path), format).toBe(count);
    }
    const table = await mock([...argv, '-f', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trim().length).toBeGreaterThan(0);
  });
});

describe('rss from the command line', () => {
  it('the channel title is the command line (key as ***); record links are absolute', async () => {
    const r = await mock(['people', '--limit', '2', '-f', 'rss']);
    expect(r.code, r.stderr).toBe(0);
    expect(XMLValidator.validate(r.stdout)).toBe(true);
    expect(r.stdout).toContain(
      `<title>news people --limit 2 -f rss --base-url ${server.url} --api-key ***</title>`,
    );
    expect(r.stdout).not.toContain(MOCK_DEFAULT_KEY);
    const links = [...r.stdout.matchAll(/<item>[\s\S]*?<link>([^<]*)<\/link>/g)].map((m) => m[1]);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(new RegExp(`^${server.url}/v1/people/\\d+$`));
  });

  it('with the in-process mock there is no URL to resolve against: no item link', async () => {
    const r = await runCli(['people', '--mock', '--limit', '2', '-f', 'rss']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<title>news people --mock --limit 2 -f rss</title>');
    expect(r.stdout.match(/<item>/g)).toHaveLength(2);
    expect(r.stdout.match(/<link>/g)).toHaveLength(1);
  });

  it('an export that spools (--all -o FILE) has the same title', async () => {
    const file = join(tempDir(), 'all.rss');
    const r = await runCli(['search', '--mock', '--limit', '3', '--all', '-f', 'rss', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(
      `<title>news search --mock --limit 3 --all -f rss -o ${file}</title>`,
    );
  });
});
